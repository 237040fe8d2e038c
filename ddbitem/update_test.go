package ddbitem

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func av(v any) types.AttributeValue {
	a, err := attributevalue.Marshal(v)
	if err != nil {
		panic(err)
	}
	return a
}

func ss(v ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }

func item(kv ...any) Item {
	img := Item{}
	for i := 0; i < len(kv); i += 2 {
		img[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return img
}

func TestApplyUpdate(t *testing.T) {
	key := item("PK", av("A"), "SK", av("1"))
	user := item("PK", av("A"), "SK", av("1"), "data", av(map[string]any{"email": "a@b.c", "lease": "L1", "account": "123"}),
		"Stock", av(10), "Tags", ss("x", "y"), "List", av([]any{"a", "b", "c"}))
	name := expression.Name
	val := expression.Value
	cases := []struct {
		name   string
		old    Item
		update expression.UpdateBuilder
		want   Item
	}{
		{"SET creates the item from its key when none exists", nil,
			expression.Set(name("Status"), val("open")),
			item("PK", av("A"), "SK", av("1"), "Status", av("open"))},
		{"SET replaces and adds top-level attributes", item("PK", av("A"), "SK", av("1"), "Name", av("old")),
			expression.Set(name("Name"), val("new")).Set(name("Email"), val("e@x")),
			item("PK", av("A"), "SK", av("1"), "Name", av("new"), "Email", av("e@x"))},
		{"SET subtracts from a number", user,
			expression.Set(name("Stock"), expression.Minus(name("Stock"), val(3))),
			with(user, "Stock", av(7))},
		{"SET adds decimals exactly", item("PK", av("A"), "SK", av("1"), "N", &types.AttributeValueMemberN{Value: "1.25"}),
			expression.Set(name("N"), expression.Plus(name("N"), val(0.75))),
			item("PK", av("A"), "SK", av("1"), "N", &types.AttributeValueMemberN{Value: "2"})},
		{"SET if_not_exists keeps what is there", user,
			expression.Set(name("Stock"), expression.IfNotExists(name("Stock"), val(0))),
			user},
		{"SET if_not_exists fills what is missing", user,
			expression.Set(name("Views"), expression.IfNotExists(name("Views"), val(0))),
			with(user, "Views", av(0))},
		{"SET list_append appends", user,
			expression.Set(name("List"), expression.ListAppend(name("List"), val([]string{"d"}))),
			with(user, "List", av([]any{"a", "b", "c", "d"}))},
		{"SET a nested map path", user,
			expression.Set(name("data.lease"), val("L2")),
			with(user, "data", av(map[string]any{"email": "a@b.c", "lease": "L2", "account": "123"}))},
		{"SET a list index past the end appends", user,
			expression.Set(name("List[7]"), val("z")),
			with(user, "List", av([]any{"a", "b", "c", "z"}))},
		{"REMOVE nested paths", user,
			expression.Remove(name("data.lease")).Remove(name("data.account")),
			with(user, "data", av(map[string]any{"email": "a@b.c"}))},
		{"REMOVE a list element shifts the rest", user,
			expression.Remove(name("List[0]")),
			with(user, "List", av([]any{"b", "c"}))},
		{"ADD to a number", user,
			expression.Add(name("Stock"), val(5)),
			with(user, "Stock", av(15))},
		{"ADD to a string set keeps one of each", user,
			expression.Add(name("Tags"), val(ss("y", "z"))),
			with(user, "Tags", ss("x", "y", "z"))},
		{"ADD creates a missing set", key,
			expression.Set(name("type"), val("status")).Add(name("ids"), val(ss("7"))),
			item("PK", av("A"), "SK", av("1"), "type", av("status"), "ids", ss("7"))},
		{"DELETE from a string set", user,
			expression.Delete(name("Tags"), val(ss("x"))),
			with(user, "Tags", ss("y"))},
		{"DELETE of the last elements removes the attribute", user,
			expression.Delete(name("Tags"), val(ss("x", "y"))),
			with(user, "Tags", nil)},
		{"operands read the item before the update", item("PK", av("A"), "SK", av("1"), "a", av(1), "b", av(2)),
			expression.Set(name("a"), name("b")).Set(name("b"), name("a")),
			item("PK", av("A"), "SK", av("1"), "a", av(2), "b", av(1))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expr, err := expression.NewBuilder().WithUpdate(c.update).Build()
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			before := clone(c.old)
			got, err := ApplyUpdate(c.old, key, *expr.Update(), expr.Names(), expr.Values())
			if err != nil {
				t.Errorf("ApplyUpdate(%q): %v", *expr.Update(), err)
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ApplyUpdate(%q)\n got  %v\n want %v", *expr.Update(), show(got), show(c.want))
			}
			if !reflect.DeepEqual(c.old, before) {
				t.Error("ApplyUpdate changed the old image")
			}
		})
	}
}

func TestApplyUpdateRefuses(t *testing.T) {
	cases := []struct{ expr, why string }{
		{"SET #a = :missing", "unknown value placeholder"},
		{"SET #a = #b", "operand path not in the item"},
		{"MULTIPLY #a :v", "unknown clause"},
		{"SET #a = size(#a)", "unknown function"},
		{"SET #a.#a = :v", "nested path under a missing attribute"},
	}
	names := map[string]string{"#a": "a", "#b": "b"}
	values := map[string]types.AttributeValue{":v": av(1)}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			if got, err := ApplyUpdate(nil, item("PK", av("A")), c.expr, names, values); err == nil {
				t.Errorf("ApplyUpdate(%q) = %v, want an error (%s)", c.expr, show(got), c.why)
			}
		})
	}
}

// with returns a copy of img with attributes set (nil deletes one).
func with(img Item, kv ...any) Item {
	out := clone(img)
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return out
}

func clone(img Item) Item {
	if img == nil {
		return nil
	}
	out := Item{}
	for k, v := range img {
		out[k] = v
	}
	return out
}

// show prints an image as plain Go values, for failure messages.
func show(img Item) any {
	var plain map[string]any
	if err := attributevalue.UnmarshalMap(img, &plain); err != nil {
		return err
	}
	return plain
}
