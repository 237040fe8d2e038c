package fault

import (
	"reflect"
	"testing"
)

// FuzzParse reads any text as a rule: it never panics, and a rule it
// reads prints as text that reads back as the same rule.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"op=TransactWriteItems table=T key=PK:X every=3 error=TransactionConflict",
		"key=PK:ORDER#* first=2 error=ThrottlingException latency=5ms",
		"op=Query index=G key=GPK:a rate=0.5 error=ProvisionedThroughputExceededException",
		"op=BatchWriteItem error=UnprocessedItems", "latency=1s", "error=ConnectionReset",
		"key=PK:** error=InternalServerError", "rate=1e-300 error=ServiceUnavailable", "every=1073741824 error=InternalServerError",
		"", "=", "op=", "key=:", "\x00=\x00", "table=\u00e9 error=RequestLimitExceeded",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text)
		if err != nil {
			return
		}
		again, err := Parse(r.String())
		if err != nil {
			t.Fatalf("%q read as %+v, printed as %q, which does not read: %v", text, r, r.String(), err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("%q read as %+v, printed as %q, reads as %+v", text, r, r.String(), again)
		}
	})
}

// FuzzReadRequest reads any body as any operation's request and decides
// and splits it: nothing panics, and a rule's aim has one mark per item.
func FuzzReadRequest(f *testing.F) {
	for _, s := range []string{
		`{"TableName":"T","Key":{"PK":{"S":"a"}}}`,
		`{"RequestItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}},{"DeleteRequest":{"Key":{"PK":{"N":"1"}}}}]}}`,
		`{"RequestItems":{"T":{"Keys":[{"PK":{"B":"AAE="}}]}}}`,
		`{"TransactItems":[{"Update":{"TableName":"T","Key":{"PK":{"S":"a"}}}},{}]}`,
		`{"TableName":"T","KeyConditionExpression":":v=PK","ExpressionAttributeValues":{":v":{"S":"a"}}}`,
		`{"TransactStatements":[{},{}]}`, `{"RequestItems":{"T":[{}]}}`, `{"RequestItems":{"T":{"Keys":null}}}`, `null`, ``,
	} {
		for i := range Ops {
			f.Add(uint8(i), []byte(s))
		}
	}
	set := mustSetF(f, "key=PK:a* error=TransactionConflict", "error=UnprocessedItems", "error=UnprocessedKeys", "table=T error=ThrottlingError", "error=InternalServerError")
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		op := Ops[int(which)%len(Ops)]
		c := Read(op, body)
		d, ok := set.Decide(c)
		if !ok {
			return
		}
		if len(d.Aimed) != len(c.Items) {
			t.Fatalf("%s %s: %d marks for %d items", op, body, len(d.Aimed), len(c.Items))
		}
		if op == "BatchWriteItem" || op == "BatchGetItem" {
			if send, back, err := Split(op, body, d.Aimed); err == nil {
				Merge(op, send, back)
			}
		}
	})
}

func mustSetF(f *testing.F, texts ...string) *Set {
	var rules []Rule
	for _, s := range texts {
		r, err := Parse(s)
		if err != nil {
			f.Fatal(err)
		}
		rules = append(rules, r)
	}
	return NewSet(1, rules...)
}
