package fault

import (
	"encoding/json"
	"fmt"
)

// Split divides a BatchWriteItem's or BatchGetItem's body by aimed (in
// Read's order of its items): send is the body with only the items not
// aimed at (nil when none is left), back the aimed ones as the answer's
// UnprocessedItems or UnprocessedKeys member holds them.
func Split(op string, body []byte, aimed []bool) (send, back []byte, err error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, nil, err
	}
	var kept, held map[string]json.RawMessage
	switch op {
	case "BatchWriteItem":
		kept, held, err = splitWrites(top["RequestItems"], aimed)
	case "BatchGetItem":
		kept, held, err = splitGets(top["RequestItems"], aimed)
	default:
		return nil, nil, fmt.Errorf("%s is not a batch", op)
	}
	if err != nil {
		return nil, nil, err
	}
	if back, err = json.Marshal(held); err != nil {
		return nil, nil, err
	}
	if len(kept) == 0 {
		return nil, back, nil
	}
	if top["RequestItems"], err = json.Marshal(kept); err != nil {
		return nil, nil, err
	}
	send, err = json.Marshal(top)
	return send, back, err
}

func splitWrites(raw json.RawMessage, aimed []bool) (kept, held map[string]json.RawMessage, err error) {
	var m map[string][]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	kept, held = map[string]json.RawMessage{}, map[string]json.RawMessage{}
	i := 0
	for _, t := range sortedKeys(m) {
		var k, h []json.RawMessage
		for _, w := range m[t] {
			if i < len(aimed) && aimed[i] {
				h = append(h, w)
			} else {
				k = append(k, w)
			}
			i++
		}
		if err := put(kept, t, k); err != nil {
			return nil, nil, err
		}
		if err := put(held, t, h); err != nil {
			return nil, nil, err
		}
	}
	return kept, held, nil
}

func splitGets(raw json.RawMessage, aimed []bool) (kept, held map[string]json.RawMessage, err error) {
	var m map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	kept, held = map[string]json.RawMessage{}, map[string]json.RawMessage{}
	i := 0
	for _, t := range sortedKeys(m) {
		var keys []json.RawMessage
		if err := json.Unmarshal(m[t]["Keys"], &keys); err != nil {
			return nil, nil, err
		}
		var k, h []json.RawMessage
		for _, key := range keys {
			if i < len(aimed) && aimed[i] {
				h = append(h, key)
			} else {
				k = append(k, key)
			}
			i++
		}
		for _, part := range []struct {
			to   map[string]json.RawMessage
			keys []json.RawMessage
		}{{kept, k}, {held, h}} {
			if len(part.keys) == 0 {
				continue
			}
			ka := map[string]json.RawMessage{}
			for name, v := range m[t] {
				ka[name] = v
			}
			b, err := json.Marshal(part.keys)
			if err != nil {
				return nil, nil, err
			}
			ka["Keys"] = b
			if part.to[t], err = json.Marshal(ka); err != nil {
				return nil, nil, err
			}
		}
	}
	return kept, held, nil
}

// put sets m[t] to v's JSON, unless v is empty.
func put[V any](m map[string]json.RawMessage, t string, v []V) error {
	if len(v) == 0 {
		return nil
	}
	b, err := json.Marshal(v)
	m[t] = b
	return err
}

// Merge adds back (Split's) to the UnprocessedItems or UnprocessedKeys of
// answer, a batch's answer body: what DynamoDB Local handed back stays,
// and the aimed items join it.
func Merge(op string, answer, back []byte) ([]byte, error) {
	member := "UnprocessedItems"
	if op == "BatchGetItem" {
		member = "UnprocessedKeys"
	}
	top := map[string]json.RawMessage{}
	if len(answer) > 0 {
		if err := json.Unmarshal(answer, &top); err != nil {
			return nil, err
		}
	}
	var have, add map[string]json.RawMessage
	if v, ok := top[member]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &have); err != nil {
			return nil, err
		}
	}
	if have == nil {
		have = map[string]json.RawMessage{}
	}
	if err := json.Unmarshal(back, &add); err != nil {
		return nil, err
	}
	for t, v := range add {
		old, ok := have[t]
		if !ok {
			have[t] = v
			continue
		}
		merged, err := mergeTable(op, old, v)
		if err != nil {
			return nil, err
		}
		have[t] = merged
	}
	b, err := json.Marshal(have)
	if err != nil {
		return nil, err
	}
	top[member] = b
	return json.Marshal(top)
}

// mergeTable joins one table's unprocessed requests (a list) or keys (a
// KeysAndAttributes whose Keys join).
func mergeTable(op string, a, b json.RawMessage) (json.RawMessage, error) {
	if op != "BatchGetItem" {
		var x, y []json.RawMessage
		if err := json.Unmarshal(a, &x); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &y); err != nil {
			return nil, err
		}
		return json.Marshal(append(x, y...))
	}
	var x, y map[string]json.RawMessage
	if err := json.Unmarshal(a, &x); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return nil, err
	}
	var kx, ky []json.RawMessage
	json.Unmarshal(x["Keys"], &kx)
	if err := json.Unmarshal(y["Keys"], &ky); err != nil {
		return nil, err
	}
	keys, err := json.Marshal(append(kx, ky...))
	if err != nil {
		return nil, err
	}
	x["Keys"] = keys
	return json.Marshal(x)
}
