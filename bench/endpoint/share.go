package endpoint

import (
	"encoding/json"
	"net/http"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
)

// share is part p's share of Local's answer (status, b) to the call name
// decided in parts (joint.go): the answer its own call would have had, as
// far as its meter reads it. i is p's place among the parts sent.
func share(name string, p *part, i, status int, b []byte) (int, []byte) {
	o, err := jsontext.ParseObject(b)
	if err != nil {
		return status, b
	}
	if name == "BatchExecuteStatement" {
		return statementShare(o, i, status, b)
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	if status != http.StatusOK {
		// A transaction cancelled: the reasons of p's actions.
		if rs, err := jsontext.ParseArray(o.Get("CancellationReasons")); err == nil && p.at != nil {
			e.Set["CancellationReasons"] = pick(rs, p.at)
		}
		return status, o.Apply(e)
	}
	for _, k := range []string{"Responses", "UnprocessedItems", "UnprocessedKeys", "ItemCollectionMetrics"} {
		v := o.Get(k)
		if v == nil {
			continue
		}
		if m, err := jsontext.ParseObject(v); err == nil {
			var others []string
			for _, t := range m.Keys() {
				if fault.TableName(t) != p.t.name {
					others = append(others, t)
				}
			}
			e.Set[k] = m.Apply(jsontext.Edit{Drop: others})
		} else if rs, err := jsontext.ParseArray(v); err == nil && p.at != nil {
			e.Set[k] = pick(rs, p.at) // a transaction's items, in order
		}
	}
	if cc, err := jsontext.ParseArray(o.Get("ConsumedCapacity")); err == nil {
		var mine [][]byte
		for _, c := range cc {
			var named struct{ TableName string }
			if json.Unmarshal(c, &named) == nil && fault.TableName(named.TableName) == p.t.name {
				mine = append(mine, c)
			}
		}
		e.Set["ConsumedCapacity"] = jsontext.JoinArray(mine)
	}
	return status, o.Apply(e)
}

// pick is the elements of elems at positions at (those there are).
func pick(elems [][]byte, at []int) []byte {
	var out [][]byte
	for _, i := range at {
		if i < len(elems) {
			out = append(out, elems[i])
		}
	}
	return jsontext.JoinArray(out)
}

// statementShare is a statement's share of a BatchExecuteStatement's
// answer: its response, as the single item's call it was decided as
// answers it. A failed condition (or an INSERT of an item already there,
// DuplicateItem) is ConditionalCheckFailedException, which the meter
// charges as a failed write; any other Error a ValidationException.
func statementShare(o jsontext.Object, i, status int, b []byte) (int, []byte) {
	if status != http.StatusOK {
		return status, b
	}
	rs, err := jsontext.ParseArray(o.Get("Responses"))
	if err != nil || i >= len(rs) {
		return status, []byte(`{}`)
	}
	r, err := jsontext.ParseObject(rs[i])
	if err != nil {
		return status, []byte(`{}`)
	}
	failed := r.Get("Error")
	if failed == nil {
		if item := r.Get("Item"); item != nil {
			return status, append(append([]byte(`{"Item":`), item...), '}')
		}
		return status, []byte(`{}`)
	}
	var f struct {
		Code, Message string
		Item          json.RawMessage
	}
	json.Unmarshal(failed, &f)
	kind := "com.amazon.coral.validate#ValidationException"
	if f.Code == "ConditionalCheckFailed" || f.Code == "DuplicateItem" {
		kind = "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException"
	}
	out, _ := json.Marshal(struct {
		Type    string          `json:"__type"`
		Message string          `json:"message"`
		Item    json.RawMessage `json:"Item,omitempty"`
	}{kind, f.Message, f.Item})
	return http.StatusBadRequest, out
}
