package endpoint

import (
	"encoding/json"
	"net/http"
	"testing"
)

func TestShareIsThePartsOwn(t *testing.T) {
	a, b := &table{name: "a"}, &table{name: "b"}
	for _, c := range []struct {
		name, op string
		p        *part
		status   int
		answer   string
		want     string
	}{
		{"a batch get's responses, unprocessed keys and capacity of its table", "BatchGetItem", &part{t: b}, 200,
			`{"Responses":{"a":[{"PK":{"S":"1"}}],"b":[{"PK":{"S":"2"}}]},"UnprocessedKeys":{"a":{"Keys":[]}},"ConsumedCapacity":[{"TableName":"a","CapacityUnits":0.5},{"TableName":"b","CapacityUnits":1.0}]}`,
			`{"Responses":{"b":[{"PK":{"S":"2"}}]},"UnprocessedKeys":{},"ConsumedCapacity":[{"TableName":"b","CapacityUnits":1.0}]}`},
		{"a table named by ARN is its table", "BatchWriteItem", &part{t: a}, 200,
			`{"UnprocessedItems":{"arn:aws:dynamodb:r:1:table/a":[],"b":[]}}`,
			`{"UnprocessedItems":{"arn:aws:dynamodb:r:1:table/a":[]}}`},
		{"a transaction's reads at its actions' places", "TransactGetItems", &part{t: a, at: []int{0, 2}}, 200,
			`{"ConsumedCapacity":[{"TableName":"a","CapacityUnits":4.0},{"TableName":"b","CapacityUnits":2.0}],"Responses":[{"Item":{"n":{"N":"0"}}},{},{"Item":{"n":{"N":"2"}}}]}`,
			`{"ConsumedCapacity":[{"TableName":"a","CapacityUnits":4.0}],"Responses":[{"Item":{"n":{"N":"0"}}},{"Item":{"n":{"N":"2"}}}]}`},
		{"a cancellation's reasons of its actions", "TransactWriteItems", &part{t: b, at: []int{1}}, 400,
			`{"__type":"x#TransactionCanceledException","CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"m"}],"Message":"c"}`,
			`{"__type":"x#TransactionCanceledException","CancellationReasons":[{"Code":"ConditionalCheckFailed","Message":"m"}],"Message":"c"}`},
		{"any other refusal whole", "BatchWriteItem", &part{t: a}, 400,
			`{"__type":"com.amazon.coral.validate#ValidationException","Message":"m"}`,
			`{"__type":"com.amazon.coral.validate#ValidationException","Message":"m"}`},
	} {
		status, got := share(c.op, c.p, 0, c.status, []byte(c.answer))
		if status != c.status || string(got) != c.want {
			t.Errorf("%s: got %d %s, want %s", c.name, status, got, c.want)
		}
	}
}

func TestStatementShareIsItsSingleItemsAnswer(t *testing.T) {
	answer := `{"Responses":[{"TableName":"a","Item":{"PK":{"S":"1"}}},{"TableName":"a"},` +
		`{"Error":{"Message":"The conditional request failed","Code":"ConditionalCheckFailed","Item":{"n":{"N":"1"}}},"TableName":"a"},` +
		`{"Error":{"Message":"Duplicate primary key exists in table","Code":"DuplicateItem"},"TableName":"a"},` +
		`{"Error":{"Message":"Only single item select is supported","Code":"ValidationError"}}]}`
	for i, want := range []struct {
		status int
		body   string
	}{
		{200, `{"Item":{"PK":{"S":"1"}}}`},
		{200, `{}`},
		{400, `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed","Item":{"n":{"N":"1"}}}`},
		{400, `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"Duplicate primary key exists in table"}`},
		{400, `{"__type":"com.amazon.coral.validate#ValidationException","message":"Only single item select is supported"}`},
	} {
		status, got := share("BatchExecuteStatement", &part{t: &table{name: "a"}, at: []int{i}}, i, http.StatusOK, []byte(answer))
		if status != want.status || string(got) != want.body {
			t.Errorf("statement %d: got %d %s, want %d %s", i, status, got, want.status, want.body)
		}
	}
}

func TestRefusedPartsAnswerInTheirPlaces(t *testing.T) {
	throttled := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow down","throttlingReasons":[]}`)
	provisioned := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"over","ThrottlingReasons":[]}`)
	ps := []*part{
		{t: &table{name: "a"}, arrived: true},
		{t: &table{name: "b"}, got: &answer{status: 400, body: throttled}},
		{t: &table{name: "a"}, arrived: true},
		{t: &table{name: "c"}, got: &answer{status: 400, body: provisioned}},
	}
	got, err := withRefusedStatements([]byte(`{"Responses":[{"TableName":"a"},{"TableName":"a","Item":{}}]}`), ps)
	want := `{"Responses":[{"TableName":"a"},{"Error":{"Message":"slow down","Code":"ThrottlingError"},"TableName":"b"},` +
		`{"TableName":"a","Item":{}},{"Error":{"Message":"over","Code":"ProvisionedThroughputExceeded"},"TableName":"c"}]}`
	if err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}

	// A transaction: the refusing table's reasons at its actions' places,
	// None at the others'.
	cancelled := []byte(`{"__type":"x#TransactionCanceledException","Message":"m","CancellationReasons":[{"Code":"ThrottlingError","Message":"slow down"}]}`)
	tx := []*part{
		{at: []int{0, 2}, arrived: true, handed: 400, got: &answer{status: 400}},
		{at: []int{1}, got: &answer{status: 400, body: cancelled}},
	}
	b, ok := cancelledWhole(tx)
	var tce struct {
		Message string
		Reasons []json.RawMessage `json:"CancellationReasons"`
	}
	if !ok || json.Unmarshal(b, &tce) != nil {
		t.Fatalf("no cancellation: %s", b)
	}
	if tce.Message != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ThrottlingError, None]" ||
		string(tce.Reasons[1]) != `{"Code":"ThrottlingError","Message":"slow down"}` {
		t.Errorf("got %s", b)
	}
}
