package askmore

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// FuzzAskedComesOutAgain holds the endpoint's text edits to their word,
// for any request and answer: a request the meter did not change reaches
// DynamoDB Local byte for byte, and one it did keeps every other member's
// bytes; an answer to a request the meter did not change comes back byte
// for byte, and what the meter asked for comes out of it again leaving
// every other member's bytes.
func FuzzAskedComesOutAgain(f *testing.F) {
	answers := []string{`{}`, `{"Items":[],"Count":0,"ScannedCount":0}`,
		`{"Attributes":{"PK":{"S":"a"},"n":{"N":"1.50"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":1.0,"Table":{"CapacityUnits":1.0}}}`,
		`{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","Message":"The conditional request failed","Item":{"PK":{"S":"a"}}}`,
		`{ "Count" : 0 , "Items" : [ ] }`, `[]`, `{"a":`, ``}
	for i, c := range ddbtest.WireCorpus {
		f.Add([]byte(strings.ReplaceAll(c.Body, "{T}", "t")), []byte(answers[i%len(answers)]))
	}
	f.Fuzz(func(t *testing.T, body, answer []byte) {
		bo, err := jsontext.ParseObject(body)
		if err != nil || !json.Valid(body) {
			return // the SDK's input reads no other: such a body passes through
		}
		same, err := withAsked(body, body)
		if err != nil || !bytes.Equal(same, body) {
			t.Fatalf("a request asked nothing more of changed: %q became %q (%v)", body, same, err)
		}
		if bo.Get("ReturnValues") != nil || bo.Get("ReturnConsumedCapacity") != nil {
			return
		}
		sent := bo.Apply(jsontext.Edit{Set: map[string][]byte{"ReturnValues": []byte(`"ALL_OLD"`), "ReturnConsumedCapacity": []byte(`"INDEXES"`)}})
		got, err := withAsked(body, sent)
		if err != nil {
			t.Fatalf("%q with %q: %v", body, sent, err)
		}
		g, err := jsontext.ParseObject(got)
		if err != nil {
			t.Fatalf("%q became %q, not an object: %v", body, got, err)
		}
		for _, k := range bo.Keys() {
			if !slices.Contains(members, k) && !bytes.Equal(g.Get(k), bo.Get(k)) {
				t.Fatalf("%q: member %q became %q", body, k, g.Get(k))
			}
		}
		if stringOf(g.Get("ReturnValues")) != "ALL_OLD" || stringOf(g.Get("ReturnConsumedCapacity")) != "INDEXES" {
			t.Fatalf("%q: what the meter asked for is not in %q", body, got)
		}

		if !json.Valid(answer) {
			if back, err := Answer("PutItem", answer, body, sent); err != nil || !bytes.Equal(back, answer) {
				t.Fatalf("an answer that is not JSON changed: %q became %q (%v)", answer, back, err)
			}
			return
		}
		ao, err := jsontext.ParseObject(answer)
		if err != nil {
			return
		}
		back, err := Answer("PutItem", answer, body, body)
		if err != nil || !bytes.Equal(back, answer) {
			t.Fatalf("an answer to what the client asked changed: %q became %q (%v)", answer, back, err)
		}
		trimmed, err := Answer("PutItem", answer, body, sent)
		if err != nil {
			t.Fatalf("%q: %v", answer, err)
		}
		to, err := jsontext.ParseObject(trimmed)
		if err != nil {
			t.Fatalf("%q became %q, not an object: %v", answer, trimmed, err)
		}
		for _, k := range ao.Keys() {
			av := ao.Get(k)
			v := to.Get(k)
			switch k {
			case "Attributes", "ConsumedCapacity":
				if v != nil {
					t.Fatalf("%q: %s, asked by the meter alone, is still in %q", answer, k, trimmed)
				}
			default:
				if !bytes.Equal(v, av) {
					t.Fatalf("%q: member %q became %q", answer, k, v)
				}
			}
		}
	})
}
