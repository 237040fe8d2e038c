package ddbitem

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The expression readers take text that patterns build and users may
// write by hand: whatever it holds, they answer or refuse, never panic, and
// never change the item they read.

var fuzzNames = map[string]string{"#a": "a", "#b": "b", "#l": "l", "#m": "m"}

var fuzzValues = map[string]types.AttributeValue{
	":n": &types.AttributeValueMemberN{Value: "1.5"}, ":s": &types.AttributeValueMemberS{Value: "x"},
	":ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}, ":l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "z"}}},
}

func fuzzItem() Item {
	return Item{"PK": &types.AttributeValueMemberS{Value: "K"}, "a": &types.AttributeValueMemberN{Value: "2"},
		"b": &types.AttributeValueMemberSS{Value: []string{"x"}}, "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "q"}}},
		"m": &types.AttributeValueMemberM{Value: Item{"k": &types.AttributeValueMemberS{Value: "v"}}}}
}

func FuzzApplyUpdate(f *testing.F) {
	for _, seed := range []string{"SET #a = #a + :n", "SET #l = list_append(#l, :l), #m.k = :s", "REMOVE #l[0], #m.k", "ADD #b :ss DELETE #b :ss",
		"SET #a = if_not_exists(#z, :n)", "SET #l[9] = :s", "SET", "SET #a = ", "REMOVE #m.#m.#m", "ADD #a :s", "set #a=:n,#b=:ss", "SET #l[00000000000000000000001] = :s"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		old := fuzzItem()
		before := Item{}
		for k, v := range old {
			before[k] = v
		}
		after, err := ApplyUpdate(old, Item{"PK": old["PK"]}, expr, fuzzNames, fuzzValues)
		if !Equal(old, before) {
			t.Fatalf("ApplyUpdate(%q) changed the old item", expr)
		}
		if err == nil && after == nil {
			t.Fatalf("ApplyUpdate(%q) returned no item and no error", expr)
		}
	})
}

func FuzzConditionHolds(f *testing.F) {
	for _, seed := range []string{"attribute_exists(#a)", "#a BETWEEN :n AND :n", "#a IN (:n, :s)", "NOT (#a < :n OR contains(#b, :s))",
		"size(#l) > :n AND begins_with(#m.k, :s)", "attribute_type(#a, :s)", "((((", "#a <> ", "NOT NOT NOT", "#l[0] = :s", "size(size(#a))"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		it := fuzzItem()
		holds, err := Condition{Expr: expr, Names: fuzzNames, Values: fuzzValues}.Holds(it)
		if !Equal(it, fuzzItem()) {
			t.Fatalf("Holds(%q) changed the item it read", expr)
		}
		if err != nil && holds {
			t.Fatalf("Holds(%q) held and failed at once: %v", expr, err)
		}
		_, _ = Condition{Expr: expr, Names: fuzzNames, Values: fuzzValues}.Holds(nil)
	})
}

func FuzzPartitionValue(f *testing.F) {
	for _, seed := range []string{"#a = :s", ":s = #a AND #b > :n", "#a = :missing", "= = =", "begins_with(#b, :s) AND #a = :s"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if v, ok := PartitionValue(expr, fuzzNames, fuzzValues, "a"); ok && v == nil {
			t.Fatalf("PartitionValue(%q) found a nil value", expr)
		}
	})
}
