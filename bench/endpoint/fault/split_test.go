package fault

import (
	"encoding/json"
	"reflect"
	"testing"
)

func object(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// A batch is sent without the items aimed at, which join the answer's
// unprocessed ones, each table's in the request's order.
func TestSplitAndMerge(t *testing.T) {
	body := []byte(`{"RequestItems":{"U":[{"PutRequest":{"Item":{"PK":{"S":"3"}}}}],"T":[{"PutRequest":{"Item":{"PK":{"S":"1"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"2"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`)
	// Read's order: T's two, then U's.
	send, back, err := Split("BatchWriteItem", body, []bool{false, true, true})
	if err != nil {
		t.Fatal(err)
	}
	want := object(t, []byte(`{"RequestItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"1"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`))
	if got := object(t, send); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %s", send)
	}
	merged, err := Merge("BatchWriteItem", []byte(`{"UnprocessedItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"9"}}}}]}}`), back)
	if err != nil {
		t.Fatal(err)
	}
	want = object(t, []byte(`{"UnprocessedItems":{"T":[{"PutRequest":{"Item":{"PK":{"S":"9"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"2"}}}}],"U":[{"PutRequest":{"Item":{"PK":{"S":"3"}}}}]}}`))
	if got := object(t, merged); !reflect.DeepEqual(got, want) {
		t.Errorf("merged %s", merged)
	}

	gets := []byte(`{"RequestItems":{"T":{"Keys":[{"PK":{"S":"1"}},{"PK":{"S":"2"}}],"ConsistentRead":true}}}`)
	send, back, err = Split("BatchGetItem", gets, []bool{true, true})
	if err != nil || send != nil {
		t.Fatalf("every key aimed at: sent %s (%v)", send, err)
	}
	merged, err = Merge("BatchGetItem", []byte(`{}`), back)
	if err != nil {
		t.Fatal(err)
	}
	want = object(t, []byte(`{"UnprocessedKeys":{"T":{"Keys":[{"PK":{"S":"1"}},{"PK":{"S":"2"}}],"ConsistentRead":true}}}`))
	if got := object(t, merged); !reflect.DeepEqual(got, want) {
		t.Errorf("merged %s", merged)
	}
	merged, err = Merge("BatchGetItem", []byte(`{"Responses":{},"UnprocessedKeys":{"T":{"Keys":[{"PK":{"S":"0"}}],"ConsistentRead":true}}}`), back)
	if err != nil {
		t.Fatal(err)
	}
	if keys := object(t, merged)["UnprocessedKeys"].(map[string]any)["T"].(map[string]any)["Keys"].([]any); len(keys) != 3 {
		t.Errorf("merged %s", merged)
	}
}
