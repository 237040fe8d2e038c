package askmore

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
)

// Answer is DynamoDB Local's answer to the meter's request (sent) with
// what the meter asked for and the client (body) did not taken out: the
// answer Local gives body. An answer that is not JSON comes back as it
// is: nothing the meter asked for is in it.
func Answer(op string, answer, body, sent []byte) ([]byte, error) {
	if !json.Valid(answer) {
		return answer, nil
	}
	if !json.Valid(body) || !json.Valid(sent) {
		return nil, jsontext.ErrNotObject
	}
	ao, err := jsontext.ParseObject(answer)
	if err != nil {
		return nil, err
	}
	bo, so, err := parseBoth(body, sent)
	if err != nil {
		return nil, err
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	differs := func(key string) bool { return !jsontext.Same(bo.Get(key), so.Get(key)) }
	if differs("ReturnValues") {
		e.Drop = append(e.Drop, "Attributes")
	}
	if differs("ReturnValuesOnConditionCheckFailure") {
		e.Drop = append(e.Drop, "Item")
	}
	if differs("ReturnConsumedCapacity") {
		if rcc := stringOf(bo.Get("ReturnConsumedCapacity")); rcc == "TOTAL" || alwaysCounted(op, ao, so) {
			if cc := ao.Get("ConsumedCapacity"); cc != nil {
				t, err := totalOnly(cc)
				if err != nil {
					return nil, err
				}
				e.Set["ConsumedCapacity"] = t
			}
		} else {
			e.Drop = append(e.Drop, "ConsumedCapacity")
		}
	}
	if added := addedNames(bo, so); len(added) > 0 {
		if items := ao.Get("Items"); items != nil {
			t, err := dropEach(items, added)
			if err != nil {
				return nil, err
			}
			e.Set["Items"] = t
		}
	}
	if err := askedInTransaction(ao, bo, so, &e); err != nil {
		return nil, err
	}
	if err := askedInBatch(ao, bo, so, &e); err != nil {
		return nil, err
	}
	return ao.Apply(e), nil
}

// alwaysCounted reports whether DynamoDB Local answers a request with
// its consumed capacity (TOTAL's shape) though not asked: a DeleteItem
// that found no item (sent asked for its old image, and none came).
func alwaysCounted(op string, ao, so jsontext.Object) bool {
	return op == "DeleteItem" && stringOf(so.Get("ReturnValues")) == "ALL_OLD" && ao.Get("Attributes") == nil && ao.Get("__type") == nil
}

// askedInTransaction takes the failure images the meter asked for out of
// a cancellation's reasons.
func askedInTransaction(ao, bo, so jsontext.Object, e *jsontext.Edit) error {
	reasons, bt, st := ao.Get("CancellationReasons"), bo.Get("TransactItems"), so.Get("TransactItems")
	if reasons == nil || bt == nil || st == nil {
		return nil
	}
	rs, err1 := jsontext.ParseArray(reasons)
	bs, err2 := jsontext.ParseArray(bt)
	ss, err3 := jsontext.ParseArray(st)
	if err1 != nil || err2 != nil || err3 != nil || len(bs) != len(ss) {
		return fmt.Errorf("CancellationReasons: an answer of another shape")
	}
	changed := false
	for i := range rs {
		if i >= len(bs) || !actionAsked(bs[i], ss[i]) {
			continue
		}
		ro, err := jsontext.ParseObject(rs[i])
		if err != nil {
			return err
		}
		if t := ro.Apply(jsontext.Edit{Drop: []string{"Item"}}); !bytes.Equal(t, rs[i]) {
			rs[i], changed = t, true
		}
	}
	if changed {
		e.Set["CancellationReasons"] = jsontext.JoinArray(rs)
	}
	return nil
}

// actionAsked reports whether the meter asked a transaction's action for
// its failure image.
func actionAsked(body, sent []byte) bool {
	bo, err1 := jsontext.ParseObject(body)
	so, err2 := jsontext.ParseObject(sent)
	if err1 != nil || err2 != nil {
		return false
	}
	for _, m := range so.Members() {
		ba, err1 := jsontext.ParseObject(bo.Get(m.Key))
		sa, err2 := jsontext.ParseObject(m.Value)
		if err1 == nil && err2 == nil && !jsontext.Same(ba.Get("ReturnValuesOnConditionCheckFailure"), sa.Get("ReturnValuesOnConditionCheckFailure")) {
			return true
		}
	}
	return false
}

// askedInBatch takes the key attributes the meter added to a
// BatchGetItem's projections out of its responses, and gives its
// unprocessed keys the client's own projections back.
func askedInBatch(ao, bo, so jsontext.Object, e *jsontext.Edit) error {
	responses, unprocessed := ao.Get("Responses"), ao.Get("UnprocessedKeys")
	bri, sri := bo.Get("RequestItems"), so.Get("RequestItems")
	if bri == nil || sri == nil || (responses == nil && unprocessed == nil) {
		return nil
	}
	bt, err1 := jsontext.ParseObject(bri)
	st, err2 := jsontext.ParseObject(sri)
	if err1 != nil || err2 != nil {
		return nil
	}
	re, ue := jsontext.Edit{Set: map[string][]byte{}}, jsontext.Edit{Set: map[string][]byte{}}
	var ro, uo jsontext.Object
	var rerr, uerr error = jsontext.ErrNotObject, jsontext.ErrNotObject
	if responses != nil {
		ro, rerr = jsontext.ParseObject(responses)
	}
	if unprocessed != nil {
		uo, uerr = jsontext.ParseObject(unprocessed)
	}
	for _, m := range st.Members() {
		_, bv := table(bt, m.Key)
		bka, err1 := jsontext.ParseObject(bv)
		ska, err2 := jsontext.ParseObject(m.Value)
		if err1 != nil || err2 != nil {
			continue
		}
		added := addedNames(bka, ska)
		if len(added) == 0 {
			continue
		}
		if rerr == nil {
			if items := ro.Get(m.Key); items != nil {
				t, err := dropEach(items, added)
				if err != nil {
					return err
				}
				re.Set[m.Key] = t
			}
		}
		if uerr == nil {
			if keys := uo.Get(m.Key); keys != nil {
				ko, err := jsontext.ParseObject(keys)
				if err != nil {
					return err
				}
				ke := jsontext.Edit{Set: map[string][]byte{}}
				for _, name := range []string{"ProjectionExpression", "ExpressionAttributeNames"} {
					if v := bka.Get(name); v != nil {
						ke.Set[name] = v
					} else {
						ke.Drop = append(ke.Drop, name)
					}
				}
				ue.Set[m.Key] = ko.Apply(ke)
			}
		}
	}
	if len(re.Set) > 0 {
		e.Set["Responses"] = ro.Apply(re)
	}
	if len(ue.Set) > 0 {
		e.Set["UnprocessedKeys"] = uo.Apply(ue)
	}
	return nil
}

// addedNames are the attributes the meter added to a projection: the
// names sent's ExpressionAttributeNames holds and body's does not.
func addedNames(body, sent jsontext.Object) []string {
	if jsontext.Same(body.Get("ProjectionExpression"), sent.Get("ProjectionExpression")) {
		return nil
	}
	var bn, sn map[string]string
	json.Unmarshal(body.Get("ExpressionAttributeNames"), &bn)
	json.Unmarshal(sent.Get("ExpressionAttributeNames"), &sn)
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
	elems, err := jsontext.ParseArray(items)
	if err != nil {
		return nil, err
	}
	for i, it := range elems {
		o, err := jsontext.ParseObject(it)
		if err != nil {
			return nil, err
		}
		elems[i] = o.Apply(jsontext.Edit{Drop: names})
	}
	return jsontext.JoinArray(elems), nil
}

// totalOnly is consumed capacity (one, or a list) in TOTAL's shape:
// without INDEXES' per-table and per-index figures.
func totalOnly(cc []byte) ([]byte, error) {
	drop := []string{"Table", "GlobalSecondaryIndexes", "LocalSecondaryIndexes"}
	if o, err := jsontext.ParseObject(cc); err == nil {
		return o.Apply(jsontext.Edit{Drop: drop}), nil
	}
	return dropEach(cc, drop)
}

func stringOf(raw []byte) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}
