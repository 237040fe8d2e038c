package askmore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// members are the members the meter may change in a request.
var members = []string{"ReturnValues", "ReturnConsumedCapacity", "ReturnValuesOnConditionCheckFailure",
	"ProjectionExpression", "ExpressionAttributeNames"}

// SetAsked sets in e, an edit of body, each of the members the meter may
// change that sent (its request) holds with another value than body: what
// the meter asked besides, at one level of a request.
func SetAsked(e *jsontext.Edit, body, sent jsontext.Object) {
	for _, key := range members {
		if sv := sent.Get(key); sv != nil && !jsontext.Same(body.Get(key), sv) {
			e.Set[key] = sv
		}
	}
}

// withAsked is the client's request body with the members the meter
// changed set as in sent (the SDK's text of the meter's request): every
// other byte as the client sent it.
func withAsked(body, sent []byte) ([]byte, error) {
	b, _, err := asked(body, sent)
	return b, err
}

// asked is withAsked, with sent read: Request looks into it again.
func asked(body, sent []byte) ([]byte, jsontext.Object, error) {
	if !json.Valid(body) || !json.Valid(sent) {
		return nil, jsontext.Object{}, jsontext.ErrNotObject
	}
	bo, so, err := parseBoth(body, sent)
	if err != nil {
		return nil, jsontext.Object{}, err
	}
	b, err := patchObjects(bo, so, 0)
	return b, so, err
}

// patch edits the object body as sent says; level is how deep it lies:
// 0 the request, 1 a transaction's item, 2 an action or a table's keys.
func patch(body, sent []byte, level int) ([]byte, error) {
	bo, so, err := parseBoth(body, sent)
	if err != nil {
		return nil, err
	}
	return patchObjects(bo, so, level)
}

// patchObjects is patch on body and sent read.
func patchObjects(bo, so jsontext.Object, level int) ([]byte, error) {
	e := jsontext.Edit{Set: map[string][]byte{}}
	SetAsked(&e, bo, so)
	for _, key := range so.Keys() {
		sv := so.Get(key)
		bv := bo.Get(key)
		switch {
		case slices.Contains(members, key), bv == nil, bytes.Equal(bv, sv): // nothing asked inside
		case level == 0 && key == "TransactItems":
			be, err1 := jsontext.ParseArray(bv)
			se, err2 := jsontext.ParseArray(sv)
			if err1 != nil || err2 != nil || len(be) != len(se) {
				return nil, fmt.Errorf("TransactItems: the meter's request has another shape")
			}
			changed := false
			for i := range be {
				p, err := patch(be[i], se[i], 1)
				if err != nil {
					return nil, err
				}
				changed = changed || !bytes.Equal(p, be[i])
				be[i] = p
			}
			if changed {
				e.Set[key] = jsontext.JoinArray(be)
			}
		case level == 0 && key == "RequestItems", level == 1:
			p, err := patchEach(bv, sv, level)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(p, bv) {
				e.Set[key] = p
			}
		}
	}
	return bo.Apply(e), nil
}

// patchEach patches the object members of body (a batch's tables, or a
// transaction item's action) one level down.
func patchEach(body, sent []byte, level int) ([]byte, error) {
	if level == 1 {
		return patch(body, sent, 2)
	}
	bo, err1 := jsontext.ParseObject(body)
	so, err2 := jsontext.ParseObject(sent)
	if err1 != nil || err2 != nil {
		return body, nil // a batch write's lists: nothing asked
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	for _, key := range so.Keys() {
		sv := so.Get(key)
		bk, bv := table(bo, key)
		if bv == nil || jsontext.IsArray(bv) {
			continue
		}
		p, err := patch(bv, sv, 2)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(p, bv) {
			e.Set[bk] = p
		}
	}
	return bo.Apply(e), nil
}

// Request is the request that reaches DynamoDB Local for the client's
// body, the meter's request being sent: withAsked, unless the emulator
// sent part of a batch (sent's RequestItems holds fewer items than
// body's): then the request carries the items sent, each spelt as the
// client spelt it, and split is true.
func Request(body, sent []byte) (b []byte, split bool, err error) {
	b, so, err := asked(body, sent)
	if err != nil {
		return nil, false, err
	}
	ri := so.Get("RequestItems")
	if ri == nil {
		return b, false, nil
	}
	bo, err := jsontext.ParseObject(b)
	if err != nil {
		return nil, false, err
	}
	kept, split, err := keptItems(bo.Get("RequestItems"), ri)
	if err != nil || !split {
		return b, false, err
	}
	return bo.Apply(jsontext.Edit{Set: map[string][]byte{"RequestItems": kept}}), true, nil
}

// keptItems is a batch's RequestItems as the client wrote them (body),
// less the items the meter's request (sent, whose tables are named by
// name and whose values the SDK spelt its own way) does not hold: the
// emulator only takes items out, in order, so an item is matched with
// the next sent one of the same value. split is false when none was
// taken out.
func keptItems(body, sent []byte) (kept []byte, split bool, err error) {
	bt, st, err := parseBoth(body, sent)
	if err != nil {
		return nil, false, err
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	for _, m := range bt.Members() {
		sv := st.Get(fault.TableName(m.Key))
		list, keys, err := batchList(m.Value)
		if err != nil {
			return nil, false, err
		}
		var sentList []byte
		if sv != nil {
			if sentList, _, err = batchList(sv); err != nil {
				return nil, false, err
			}
		}
		elems, err := jsontext.ParseArray(list)
		if err != nil {
			return nil, false, err
		}
		var sentElems [][]byte
		if sentList != nil {
			if sentElems, err = jsontext.ParseArray(sentList); err != nil {
				return nil, false, err
			}
		}
		if len(sentElems) == len(elems) {
			continue
		}
		split = true
		var keep [][]byte
		j := 0
		for _, el := range elems {
			if j < len(sentElems) && canonical(el) == canonical(sentElems[j]) {
				keep, j = append(keep, el), j+1
			}
		}
		if len(keep) == 0 {
			e.Drop = append(e.Drop, m.Key)
			continue
		}
		if keys == nil {
			e.Set[m.Key] = jsontext.JoinArray(keep)
			continue
		}
		e.Set[m.Key] = keys.Apply(jsontext.Edit{Set: map[string][]byte{"Keys": jsontext.JoinArray(keep)}})
	}
	if !split {
		return body, false, nil
	}
	return bt.Apply(e), true, nil
}

// batchList is a batch table's list of items: the value itself (a
// BatchWriteItem's requests), or its Keys (a BatchGetItem's), with the
// object that holds them.
func batchList(v []byte) (list []byte, keys *jsontext.Object, err error) {
	if jsontext.IsArray(v) {
		return v, nil, nil
	}
	o, err := jsontext.ParseObject(v)
	if err != nil {
		return nil, nil, err
	}
	return o.Get("Keys"), &o, nil
}

// canonical is the JSON value raw with its numbers (N, NS) written as
// DynamoDB stores them and its members in one order, so that two
// spellings of one item compare equal.
func canonical(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(canonNumbers(v))
	if err != nil {
		return string(raw)
	}
	return string(b)
}

func canonNumbers(v any) any {
	number := func(x any) any {
		if s, ok := x.(string); ok {
			if n, err := ddbitem.StoredNumber(s); err == nil {
				return n
			}
		}
		return x
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch {
			case k == "N":
				v[k] = number(x)
			case k == "NS":
				if l, ok := x.([]any); ok {
					for i := range l {
						l[i] = number(l[i])
					}
				}
			default:
				v[k] = canonNumbers(x)
			}
		}
	case []any:
		for i := range v {
			v[i] = canonNumbers(v[i])
		}
	}
	return v
}

// table is the member of o, a batch's tables, that names table name, by
// name or by ARN: its key as written, and its value.
func table(o jsontext.Object, name string) (string, []byte) {
	if v := o.Get(name); v != nil {
		return name, v
	}
	for _, k := range o.Keys() {
		if fault.TableName(k) == name {
			return k, o.Get(k)
		}
	}
	return "", nil
}

// parseBoth parses the client's body and the meter's request, the two
// objects every edit here reads side by side.
func parseBoth(body, sent []byte) (jsontext.Object, jsontext.Object, error) {
	bo, err := jsontext.ParseObject(body)
	if err != nil {
		return jsontext.Object{}, jsontext.Object{}, err
	}
	so, err := jsontext.ParseObject(sent)
	return bo, so, err
}
