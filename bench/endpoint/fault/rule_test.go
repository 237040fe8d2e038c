package fault

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Each setting is read into its field, and the rule prints back as it
// reads.
func TestParseReadsEachSetting(t *testing.T) {
	for _, c := range []struct {
		text string
		want Rule
	}{
		{"op=TransactWriteItems table=T key=PK:X every=3 error=TransactionConflict",
			Rule{Op: "TransactWriteItems", Table: "T", KeyAttr: "PK", KeyValue: "X", Every: 3, Error: Conflict}},
		{"key=PK:ORDER#* first=2 error=ThrottlingException", Rule{KeyAttr: "PK", KeyValue: "ORDER#", KeyPrefix: true, First: 2, Error: Throttling}},
		{"op=Query index=GSI1 key=GSI1PK:a:b rate=0.25 error=ProvisionedThroughputExceededException",
			Rule{Op: "Query", Index: "GSI1", KeyAttr: "GSI1PK", KeyValue: "a:b", Rate: 0.25, Error: Provisioned}},
		{"  latency=150ms  ", Rule{Latency: 150 * time.Millisecond}},
		{"error=RequestLimitExceeded latency=1s", Rule{Error: RequestLimit, Latency: time.Second}},
		{"op=BatchWriteItem error=UnprocessedItems", Rule{Op: "BatchWriteItem", Error: UnprocessedItems}},
		{"op=BatchGetItem error=UnprocessedKeys", Rule{Op: "BatchGetItem", Error: UnprocessedKeys}},
		{"op=TransactGetItems error=ThrottlingError", Rule{Op: "TransactGetItems", Error: ThrottlingError}},
		{"op=UpdateItem error=TransactionConflict", Rule{Op: "UpdateItem", Error: Conflict}},
		{"error=InternalServerError", Rule{Error: Internal}},
		{"table=arn:aws:x error=ServiceUnavailable", Rule{Table: "arn:aws:x", Error: Unavailable}},
		{"op=PutItem key=PK:a=b error=ConnectionReset", Rule{Op: "PutItem", KeyAttr: "PK", KeyValue: "a=b", Error: Reset}},
		{"op=ExecuteStatement error=InternalServerError", Rule{Op: "ExecuteStatement", Error: Internal}},
	} {
		got, err := Parse(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q read as %+v, want %+v", c.text, got, c.want)
		}
		again, err := Parse(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%q prints as %q, which reads as %+v (%v)", c.text, got.String(), again, err)
		}
	}
}

// A rule that is not whole is refused, the message naming the word and
// the fix.
func TestParseRefusesNamingTheFix(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "the rule is empty"},
		{"op=GetItem", "the rule does nothing: add error=KIND"},
		{"op=GetItems error=ThrottlingException", "op=GetItems is not a data-plane operation: want one of GetItem"},
		{"op=CreateTable error=ThrottlingException", "op=CreateTable is not a data-plane operation"},
		{"error=Throttled", "error=Throttled is not a fault: want one of ThrottlingException, ProvisionedThroughputExceededException"},
		{"error=ThrottlingException error=InternalServerError", "error= is given twice: keep one"},
		{"op=GetItem error=TransactionConflict", "error=TransactionConflict cannot happen to a GetItem: it meets TransactWriteItems"},
		{"op=PutItem error=ThrottlingError", "error=ThrottlingError cannot happen to a PutItem"},
		{"op=BatchGetItem error=UnprocessedItems", "error=UnprocessedItems cannot happen to a BatchGetItem: it meets BatchWriteItem"},
		{"every=0 error=InternalServerError", "every=0: want a whole number of calls from 1"},
		{"first=x error=InternalServerError", "first=x: want a whole number"},
		{"every=2 first=1 error=InternalServerError", "every=, first= and rate= each say when the rule fires: keep one"},
		{"rate=0 error=InternalServerError", "rate=0: want a chance above 0 and at most 1"},
		{"rate=1.5 error=InternalServerError", "rate=1.5"},
		{"rate=NaN error=InternalServerError", "rate=NaN"},
		{"latency=fast", "latency=fast: want a duration above 0"},
		{"latency=-1s", "latency=-1s"},
		{"latency=1h", "latency=1h: want a duration above 0 and at most 30s"},
		{"key=PK error=InternalServerError", "key=PK: want key=ATTRIBUTE:VALUE"},
		{"key=:x error=InternalServerError", "key=:x: want key=ATTRIBUTE:VALUE"},
		{"key=PK:* error=InternalServerError", "key=PK:* matches every value: leave key= out"},
		{"table= error=InternalServerError", `"table=" is not name=value`},
		{"op GetItem", `"op" is not name=value`},
		{"tabel=T error=InternalServerError", "tabel= is not a setting of a rule: want op, table"},
		{"op=ExecuteStatement table=T error=InternalServerError", "its items are in PartiQL statements"},
		{"op=GetItem index=G error=InternalServerError", "index=G: only a Query or a Scan names an index, not a GetItem"},
		{"index=G error=UnprocessedKeys", "index=G: only a Query or a Scan names an index, and error=UnprocessedKeys cannot happen to either"},
	} {
		_, err := Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// A rules file skips blank lines and comments, keeps a # inside a rule,
// and names the line of a bad rule.
func TestParseLines(t *testing.T) {
	rules, err := ParseLines("f", "# the invoicing faults\n\nop=GetItem key=PK:CLIENT#1 first=1 error=ThrottlingException\n   # indented comment\nlatency=10ms\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].KeyValue != "CLIENT#1" || rules[1].Latency != 10*time.Millisecond {
		t.Fatalf("read %+v", rules)
	}
	_, err = ParseLines("rules.txt", "latency=10ms\n\nop=GetItem error=Boom\n")
	if err == nil || !strings.Contains(err.Error(), `rules.txt:3: rule "op=GetItem error=Boom": error=Boom is not a fault`) {
		t.Fatalf("got %v", err)
	}
}
