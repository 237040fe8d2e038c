package fault

import (
	"reflect"
	"testing"
)

func mustSet(t *testing.T, seed uint64, texts ...string) *Set {
	t.Helper()
	var rules []Rule
	for _, s := range texts {
		r, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	return NewSet(seed, rules...)
}

func get(table, pk string) Call {
	return Read("GetItem", []byte(`{"TableName":"`+table+`","Key":{"PK":{"S":"`+pk+`"},"SK":{"N":"1"}}}`))
}

// fired is which of n calls the set decides on, one after another.
func fired(s *Set, n int, c Call) []bool {
	out := make([]bool, n)
	for i := range out {
		_, out[i] = s.Decide(c)
	}
	return out
}

// every=N fires on the Nth matched call and each Nth after; first=N on
// the first N; none on each; the counts say so.
func TestSetFiresOnItsCount(t *testing.T) {
	c := get("T", "A")
	if got, want := fired(mustSet(t, 1, "every=3 error=InternalServerError"), 7, c), []bool{false, false, true, false, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("every=3: %v, want %v", got, want)
	}
	s := mustSet(t, 1, "first=2 error=InternalServerError")
	if got, want := fired(s, 4, c), []bool{true, true, false, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("first=2: %v, want %v", got, want)
	}
	if got := s.Status(); len(got) != 1 || got[0].Matched != 4 || got[0].Hits != 2 || got[0].Rule != "first=2 error=InternalServerError" {
		t.Errorf("status %+v", got)
	}
	if got := fired(mustSet(t, 1, "error=InternalServerError"), 3, c); !reflect.DeepEqual(got, []bool{true, true, true}) {
		t.Errorf("no count: %v", got)
	}
}

// rate=P draws from the seed: one seed, the same calls; another, others;
// and about P of them.
func TestSetRateIsSeeded(t *testing.T) {
	c := get("T", "A")
	a := fired(mustSet(t, 7, "rate=0.3 error=InternalServerError"), 1000, c)
	b := fired(mustSet(t, 7, "rate=0.3 error=InternalServerError"), 1000, c)
	other := fired(mustSet(t, 8, "rate=0.3 error=InternalServerError"), 1000, c)
	if !reflect.DeepEqual(a, b) {
		t.Error("one seed drew two sequences")
	}
	if reflect.DeepEqual(a, other) {
		t.Error("two seeds drew one sequence")
	}
	n := 0
	for _, f := range a {
		if f {
			n++
		}
	}
	if n < 240 || n > 360 {
		t.Errorf("rate=0.3 fired on %d of 1000 calls", n)
	}
}

// A rule matches by op, table, index and key (exact or prefix), and only
// the calls its error can meet.
func TestSetMatches(t *testing.T) {
	query := Read("Query", []byte(`{"TableName":"T","IndexName":"G1","KeyConditionExpression":"#p = :v AND begins_with(SK, :s)","ExpressionAttributeNames":{"#p":"GPK"},"ExpressionAttributeValues":{":v":{"S":"ORG#1"},":s":{"S":"x"}}}`))
	legacy := Read("Query", []byte(`{"TableName":"T","KeyConditions":{"PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"A"}]}}}`))
	put := Read("PutItem", []byte(`{"TableName":"arn:aws:dynamodb:us-east-1:1:table/T","Item":{"PK":{"S":"ORDER#7"},"n":{"N":"1"}}}`))
	tx := Read("TransactWriteItems", []byte(`{"TransactItems":[{"Put":{"TableName":"T","Item":{"PK":{"S":"A"}}}},{"Update":{"TableName":"U","Key":{"PK":{"S":"B"}}}}]}`))
	for _, c := range []struct {
		rule string
		call Call
		want bool
	}{
		{"op=GetItem error=InternalServerError", get("T", "A"), true},
		{"op=PutItem error=InternalServerError", get("T", "A"), false},
		{"table=T error=InternalServerError", get("T", "A"), true},
		{"table=U error=InternalServerError", get("T", "A"), false},
		{"table=T error=InternalServerError", put, true}, // by ARN
		{"key=PK:A error=InternalServerError", get("T", "A"), true},
		{"key=PK:A error=InternalServerError", get("T", "AB"), false},
		{"key=PK:A* error=InternalServerError", get("T", "AB"), true},
		{"key=SK:1 error=InternalServerError", get("T", "A"), true},
		{"key=PK:ORDER#* error=InternalServerError", put, true},
		{"key=n:1 error=InternalServerError", put, true},
		{"index=G1 error=InternalServerError", query, true},
		{"index=G2 error=InternalServerError", query, false},
		{"index=G1 key=GPK:ORG#1 error=InternalServerError", query, true},
		{"key=GPK:ORG#2 error=InternalServerError", query, false},
		{"key=PK:A error=InternalServerError", legacy, true},
		{"error=TransactionConflict", get("T", "A"), false}, // a GetItem never conflicts
		{"error=TransactionConflict", put, true},
		{"table=U error=TransactionConflict", tx, true},
		{"table=V error=TransactionConflict", tx, false},
		{"error=UnprocessedItems", tx, false},
	} {
		r, err := Parse(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := r.match(c.call); got != c.want {
			t.Errorf("%q on %+v: %v, want %v", c.rule, c.call, got, c.want)
		}
	}
}

// The rule aims at the items its table and key select; the first rule
// that fires decides, and the rules after it do not count the call.
func TestSetAimsAndOrders(t *testing.T) {
	tx := Read("TransactWriteItems", []byte(`{"TransactItems":[{"Put":{"TableName":"T","Item":{"PK":{"S":"A"}}}},{"ConditionCheck":{"TableName":"T","Key":{"PK":{"S":"B"}}}},{"Delete":{"TableName":"T","Key":{"PK":{"S":"A"}}}}]}`))
	s := mustSet(t, 1, "key=PK:A error=TransactionConflict", "error=ThrottlingError")
	d, ok := s.Decide(tx)
	if !ok || d.Rule != 0 || d.Error != Conflict || !reflect.DeepEqual(d.Aimed, []bool{true, false, true}) {
		t.Fatalf("decided %+v %v", d, ok)
	}
	if st := s.Status(); st[1].Matched != 0 {
		t.Errorf("the second rule counted a call the first decided: %+v", st)
	}
	d, _ = mustSet(t, 1, "error=ThrottlingError").Decide(tx)
	if !reflect.DeepEqual(d.Aimed, []bool{true, true, true}) {
		t.Errorf("a rule naming no table or key aims at %v", d.Aimed)
	}
	batch := Read("BatchWriteItem", []byte(`{"RequestItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"1"}}}},{"PutRequest":{"Item":{"PK":{"S":"2"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"3"}}}}]}}`))
	d, _ = mustSet(t, 1, "error=UnprocessedItems").Decide(batch)
	if !reflect.DeepEqual(d.Aimed, []bool{false, true, true}) {
		t.Errorf("UnprocessedItems with no aim hands back %v, want the later half", d.Aimed)
	}
	var nilSet *Set
	if _, ok := nilSet.Decide(batch); ok || nilSet.Status() != nil {
		t.Error("no set fired")
	}
}

// A PartiQL call is matched by its operation alone: its statements are
// not read, a transaction of them has an action per statement, and a rule
// naming a table never matches it.
func TestSetMatchesPartiQLByOperation(t *testing.T) {
	c := Read("ExecuteTransaction", []byte(`{"TransactStatements":[{"Statement":"UPDATE \"T\" SET n = 1 WHERE PK = 'a'"},{"Statement":"DELETE FROM \"T\" WHERE PK = 'b'"}]}`))
	d, ok := mustSet(t, 1, "table=T error=TransactionConflict", "op=ExecuteTransaction error=TransactionConflict").Decide(c)
	if !ok || d.Rule != 1 || !reflect.DeepEqual(d.Aimed, []bool{true, true}) {
		t.Fatalf("decided %+v %v", d, ok)
	}
}
