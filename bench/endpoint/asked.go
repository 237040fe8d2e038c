package endpoint

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// The meter (bench/meter) asks DynamoDB Local for more than a client may
// have asked: old images (ReturnValues ALL_OLD, and ALL_OLD on a failed
// condition), per-index consumed capacity (INDEXES), the key attributes
// in a projection. It changes nothing else, and only where the client
// asked for none of it, so what it added can be taken out of Local's
// answer again, leaving the answer Local gives the request as the client
// sent it.

// askable are the members the meter may change in a request.
var askable = []string{"ReturnValues", "ReturnConsumedCapacity", "ReturnValuesOnConditionCheckFailure",
	"ProjectionExpression", "ExpressionAttributeNames"}

// withAsked is the client's request body with the askable members the
// meter changed set as in sent (the SDK's text of the meter's request):
// every other byte as the client sent it.
func withAsked(body, sent []byte) ([]byte, error) {
	if !json.Valid(body) || !json.Valid(sent) {
		return nil, errNotObject
	}
	return patch(body, sent, 0)
}

// patch edits the object body as sent says; level is how deep it lies:
// 0 the request, 1 a transaction's item, 2 an action or a table's keys.
func patch(body, sent []byte, level int) ([]byte, error) {
	bo, so, err := parseBoth(body, sent)
	if err != nil {
		return nil, err
	}
	e := edit{set: map[string][]byte{}}
	for _, key := range so.keys() {
		m := member{key: key, val: so.get(key)}
		bv := bo.get(m.key)
		switch {
		case contains(askable, m.key):
			if !sameJSON(bv, m.val) {
				e.set[m.key] = m.val
			}
		case bv == nil:
		case level == 0 && m.key == "TransactItems":
			be, err1 := parseArray(bv)
			se, err2 := parseArray(m.val)
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
				e.set[m.key] = joinArray(be)
			}
		case level == 0 && m.key == "RequestItems", level == 1:
			p, err := patchEach(bv, m.val, level)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(p, bv) {
				e.set[m.key] = p
			}
		}
	}
	return bo.apply(e), nil
}

// patchEach patches the object members of body (a batch's tables, or a
// transaction item's action) one level down.
func patchEach(body, sent []byte, level int) ([]byte, error) {
	if level == 1 {
		return patch(body, sent, 2)
	}
	bo, err1 := parseObject(body)
	so, err2 := parseObject(sent)
	if err1 != nil || err2 != nil {
		return body, nil // a batch write's lists: nothing asked
	}
	e := edit{set: map[string][]byte{}}
	for _, key := range so.keys() {
		m := member{key: key, val: so.get(key)}
		bk, bv := bo.table(m.key)
		if bv == nil || bytes.HasPrefix(bytes.TrimSpace(bv), []byte("[")) {
			continue
		}
		p, err := patch(bv, m.val, 2)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(p, bv) {
			e.set[bk] = p
		}
	}
	return bo.apply(e), nil
}

// asAsked is DynamoDB Local's answer to the meter's request (sent) with
// what the meter asked for and the client (body) did not taken out: the
// answer Local gives body.
func asAsked(op string, answer, body, sent []byte) ([]byte, error) {
	if !json.Valid(answer) || !json.Valid(body) || !json.Valid(sent) {
		return nil, errNotObject
	}
	ao, err := parseObject(answer)
	if err != nil {
		return nil, err
	}
	bo, so, err := parseBoth(body, sent)
	if err != nil {
		return nil, err
	}
	e := edit{set: map[string][]byte{}}
	differs := func(key string) bool { return !sameJSON(bo.get(key), so.get(key)) }
	if differs("ReturnValues") {
		e.drop = append(e.drop, "Attributes")
	}
	if differs("ReturnValuesOnConditionCheckFailure") {
		e.drop = append(e.drop, "Item")
	}
	if differs("ReturnConsumedCapacity") {
		if rcc := stringOf(bo.get("ReturnConsumedCapacity")); rcc == "TOTAL" || alwaysCounted(op, ao, so) {
			if cc := ao.get("ConsumedCapacity"); cc != nil {
				t, err := totalOnly(cc)
				if err != nil {
					return nil, err
				}
				e.set["ConsumedCapacity"] = t
			}
		} else {
			e.drop = append(e.drop, "ConsumedCapacity")
		}
	}
	if added := addedNames(bo, so); len(added) > 0 {
		if items := ao.get("Items"); items != nil {
			t, err := dropEach(items, added)
			if err != nil {
				return nil, err
			}
			e.set["Items"] = t
		}
	}
	if err := askedInTransaction(ao, bo, so, &e); err != nil {
		return nil, err
	}
	if err := askedInBatch(ao, bo, so, &e); err != nil {
		return nil, err
	}
	return ao.apply(e), nil
}

// alwaysCounted reports whether DynamoDB Local answers a request with
// its consumed capacity (TOTAL's shape) though not asked: a DeleteItem
// that found no item (sent asked for its old image, and none came).
func alwaysCounted(op string, ao, so object) bool {
	return op == "DeleteItem" && stringOf(so.get("ReturnValues")) == "ALL_OLD" && ao.get("Attributes") == nil && ao.get("__type") == nil
}

// askedInTransaction takes the failure images the meter asked for out of
// a cancellation's reasons.
func askedInTransaction(ao, bo, so object, e *edit) error {
	reasons, bt, st := ao.get("CancellationReasons"), bo.get("TransactItems"), so.get("TransactItems")
	if reasons == nil || bt == nil || st == nil {
		return nil
	}
	rs, err1 := parseArray(reasons)
	bs, err2 := parseArray(bt)
	ss, err3 := parseArray(st)
	if err1 != nil || err2 != nil || err3 != nil || len(bs) != len(ss) {
		return fmt.Errorf("CancellationReasons: an answer of another shape")
	}
	changed := false
	for i := range rs {
		if i >= len(bs) || !actionAsked(bs[i], ss[i]) {
			continue
		}
		ro, err := parseObject(rs[i])
		if err != nil {
			return err
		}
		if t := ro.apply(edit{drop: []string{"Item"}}); !bytes.Equal(t, rs[i]) {
			rs[i], changed = t, true
		}
	}
	if changed {
		e.set["CancellationReasons"] = joinArray(rs)
	}
	return nil
}

// actionAsked reports whether the meter asked a transaction's action for
// its failure image.
func actionAsked(body, sent []byte) bool {
	bo, err1 := parseObject(body)
	so, err2 := parseObject(sent)
	if err1 != nil || err2 != nil {
		return false
	}
	for _, m := range so.members {
		ba, err1 := parseObject(bo.get(m.key))
		sa, err2 := parseObject(m.val)
		if err1 == nil && err2 == nil && !sameJSON(ba.get("ReturnValuesOnConditionCheckFailure"), sa.get("ReturnValuesOnConditionCheckFailure")) {
			return true
		}
	}
	return false
}

// askedInBatch takes the key attributes the meter added to a
// BatchGetItem's projections out of its responses, and gives its
// unprocessed keys the client's own projections back.
func askedInBatch(ao, bo, so object, e *edit) error {
	responses, unprocessed := ao.get("Responses"), ao.get("UnprocessedKeys")
	bri, sri := bo.get("RequestItems"), so.get("RequestItems")
	if bri == nil || sri == nil || (responses == nil && unprocessed == nil) {
		return nil
	}
	bt, err1 := parseObject(bri)
	st, err2 := parseObject(sri)
	if err1 != nil || err2 != nil {
		return nil
	}
	re, ue := edit{set: map[string][]byte{}}, edit{set: map[string][]byte{}}
	var ro, uo object
	var rerr, uerr error = errNotObject, errNotObject
	if responses != nil {
		ro, rerr = parseObject(responses)
	}
	if unprocessed != nil {
		uo, uerr = parseObject(unprocessed)
	}
	for _, m := range st.members {
		_, bv := bt.table(m.key)
		bka, err1 := parseObject(bv)
		ska, err2 := parseObject(m.val)
		if err1 != nil || err2 != nil {
			continue
		}
		added := addedNames(bka, ska)
		if len(added) == 0 {
			continue
		}
		if rerr == nil {
			if items := ro.get(m.key); items != nil {
				t, err := dropEach(items, added)
				if err != nil {
					return err
				}
				re.set[m.key] = t
			}
		}
		if uerr == nil {
			if keys := uo.get(m.key); keys != nil {
				ko, err := parseObject(keys)
				if err != nil {
					return err
				}
				ke := edit{set: map[string][]byte{}}
				for _, name := range []string{"ProjectionExpression", "ExpressionAttributeNames"} {
					if v := bka.get(name); v != nil {
						ke.set[name] = v
					} else {
						ke.drop = append(ke.drop, name)
					}
				}
				ue.set[m.key] = ko.apply(ke)
			}
		}
	}
	if len(re.set) > 0 {
		e.set["Responses"] = ro.apply(re)
	}
	if len(ue.set) > 0 {
		e.set["UnprocessedKeys"] = uo.apply(ue)
	}
	return nil
}

// addedNames are the attributes the meter added to a projection: the
// names sent's ExpressionAttributeNames holds and body's does not.
func addedNames(body, sent object) []string {
	if sameJSON(body.get("ProjectionExpression"), sent.get("ProjectionExpression")) {
		return nil
	}
	var bn, sn map[string]string
	json.Unmarshal(body.get("ExpressionAttributeNames"), &bn)
	json.Unmarshal(sent.get("ExpressionAttributeNames"), &sn)
	var added []string
	for k, v := range sn {
		if _, ok := bn[k]; !ok {
			added = append(added, v)
		}
	}
	return added
}

// dropEach takes the attributes names out of every item of the list items.
func dropEach(items []byte, names []string) ([]byte, error) {
	elems, err := parseArray(items)
	if err != nil {
		return nil, err
	}
	for i, it := range elems {
		o, err := parseObject(it)
		if err != nil {
			return nil, err
		}
		elems[i] = o.apply(edit{drop: names})
	}
	return joinArray(elems), nil
}

// totalOnly is consumed capacity (one, or a list) in TOTAL's shape:
// without INDEXES' per-table and per-index figures.
func totalOnly(cc []byte) ([]byte, error) {
	drop := edit{drop: []string{"Table", "GlobalSecondaryIndexes", "LocalSecondaryIndexes"}}
	if o, err := parseObject(cc); err == nil {
		return o.apply(drop), nil
	}
	elems, err := parseArray(cc)
	if err != nil {
		return nil, err
	}
	for i, el := range elems {
		o, err := parseObject(el)
		if err != nil {
			return nil, err
		}
		elems[i] = o.apply(drop)
	}
	return joinArray(elems), nil
}

func stringOf(raw []byte) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// withAskedOrSplit is withAsked, unless the emulator sent part of a
// batch (sent's RequestItems holds fewer items than body's): then the
// request carries the items sent, each spelt as the client spelt it, and
// split is true.
func withAskedOrSplit(body, sent []byte) (b []byte, split bool, err error) {
	if b, err = withAsked(body, sent); err != nil {
		return nil, false, err
	}
	so, err := parseObject(sent)
	if err != nil {
		return nil, false, err
	}
	ri := so.get("RequestItems")
	if ri == nil {
		return b, false, nil
	}
	bo, err := parseObject(b)
	if err != nil {
		return nil, false, err
	}
	kept, split, err := keptItems(bo.get("RequestItems"), ri)
	if err != nil || !split {
		return b, false, err
	}
	return bo.apply(edit{set: map[string][]byte{"RequestItems": kept}}), true, nil
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
	e := edit{set: map[string][]byte{}}
	for _, m := range bt.members {
		sv := st.get(fault.TableName(m.key))
		list, keys, err := batchList(m.val)
		if err != nil {
			return nil, false, err
		}
		var sentList []byte
		if sv != nil {
			if sentList, _, err = batchList(sv); err != nil {
				return nil, false, err
			}
		}
		elems, err := parseArray(list)
		if err != nil {
			return nil, false, err
		}
		var sentElems [][]byte
		if sentList != nil {
			if sentElems, err = parseArray(sentList); err != nil {
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
			e.drop = append(e.drop, m.key)
			continue
		}
		if keys == nil {
			e.set[m.key] = joinArray(keep)
			continue
		}
		e.set[m.key] = keys.apply(edit{set: map[string][]byte{"Keys": joinArray(keep)}})
	}
	if !split {
		return body, false, nil
	}
	return bt.apply(e), true, nil
}

// batchList is a batch table's list of items: the value itself (a
// BatchWriteItem's requests), or its Keys (a BatchGetItem's), with the
// object that holds them.
func batchList(v []byte) (list []byte, keys *object, err error) {
	if i := space(v, 0); i < len(v) && v[i] == '[' {
		return v, nil, nil
	}
	o, err := parseObject(v)
	if err != nil {
		return nil, nil, err
	}
	return o.get("Keys"), &o, nil
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
func (o object) table(name string) (string, []byte) {
	if v := o.get(name); v != nil {
		return name, v
	}
	for _, k := range o.keys() {
		if fault.TableName(k) == name {
			return k, o.get(k)
		}
	}
	return "", nil
}

// parseBoth parses the client's body and the meter's request, the two
// objects every edit here reads side by side.
func parseBoth(body, sent []byte) (object, object, error) {
	bo, err := parseObject(body)
	if err != nil {
		return object{}, object{}, err
	}
	so, err := parseObject(sent)
	return bo, so, err
}
