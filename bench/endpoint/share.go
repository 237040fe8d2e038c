package endpoint

import (
	"encoding/json"
	"net/http"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
)

// share is part p's share of Local's answer (status, b) to the call name
// decided in parts (joint.go): the answer its own call would have had, as
// far as its meter reads it. i is p's place among the parts sent.
func share(name string, p *part, i, status int, b []byte) (int, []byte) {
	o, err := parseObject(b)
	if err != nil {
		return status, b
	}
	if name == "BatchExecuteStatement" {
		return statementShare(o, i, status, b)
	}
	e := edit{set: map[string][]byte{}}
	if status != http.StatusOK {
		// A transaction cancelled: the reasons of p's actions.
		if rs, err := parseArray(o.get("CancellationReasons")); err == nil && p.at != nil {
			e.set["CancellationReasons"] = pick(rs, p.at)
		}
		return status, o.apply(e)
	}
	for _, k := range []string{"Responses", "UnprocessedItems", "UnprocessedKeys", "ItemCollectionMetrics"} {
		v := o.get(k)
		if v == nil {
			continue
		}
		if m, err := parseObject(v); err == nil {
			var others []string
			for _, t := range m.keys() {
				if fault.TableName(t) != p.t.name {
					others = append(others, t)
				}
			}
			e.set[k] = m.apply(edit{drop: others})
		} else if rs, err := parseArray(v); err == nil && p.at != nil {
			e.set[k] = pick(rs, p.at) // a transaction's items, in order
		}
	}
	if cc, err := parseArray(o.get("ConsumedCapacity")); err == nil {
		var mine [][]byte
		for _, c := range cc {
			var named struct{ TableName string }
			if json.Unmarshal(c, &named) == nil && fault.TableName(named.TableName) == p.t.name {
				mine = append(mine, c)
			}
		}
		e.set["ConsumedCapacity"] = joinArray(mine)
	}
	return status, o.apply(e)
}

// pick is the elements of elems at positions at (those there are).
func pick(elems [][]byte, at []int) []byte {
	var out [][]byte
	for _, i := range at {
		if i < len(elems) {
			out = append(out, elems[i])
		}
	}
	return joinArray(out)
}

// statementShare is a statement's share of a BatchExecuteStatement's
// answer: its response, as the single item's call it was decided as
// answers it. A failed condition (or an INSERT of an item already there,
// DuplicateItem) is ConditionalCheckFailedException, which the meter
// charges as a failed write; any other Error a ValidationException.
func statementShare(o object, i, status int, b []byte) (int, []byte) {
	if status != http.StatusOK {
		return status, b
	}
	rs, err := parseArray(o.get("Responses"))
	if err != nil || i >= len(rs) {
		return status, []byte(`{}`)
	}
	r, err := parseObject(rs[i])
	if err != nil {
		return status, []byte(`{}`)
	}
	failed := r.get("Error")
	if failed == nil {
		if item := r.get("Item"); item != nil {
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
