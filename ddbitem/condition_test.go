package ddbitem

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestConditionHolds(t *testing.T) {
	stored := item("PK", av("A"), "SK", av("1"), "Status", av("open"), "Stock", av(10), "Price", &types.AttributeValueMemberN{Value: "2.50"},
		"Tags", ss("x", "y"), "List", av([]any{"a", "b"}), "data", av(map[string]any{"email": "a@b.c"}), "Nothing", &types.AttributeValueMemberNULL{Value: true})
	name, val := expression.Name, expression.Value
	cases := []struct {
		name string
		cond expression.ConditionBuilder
		item Item
		want bool
	}{
		{"attribute_not_exists on no item", expression.AttributeNotExists(name("PK")), nil, true},
		{"attribute_not_exists on an item", expression.AttributeNotExists(name("PK")), stored, false},
		{"attribute_exists", expression.AttributeExists(name("PK")), stored, true},
		{"a NULL attribute exists", expression.AttributeExists(name("Nothing")), stored, true},
		{"nested path exists", expression.AttributeExists(name("data.email")), stored, true},
		{"= on a string", name("Status").Equal(val("open")), stored, true},
		{"= on a number by value", name("Price").Equal(val(2.5)), stored, true},
		{"= across types", name("Stock").Equal(val("10")), stored, false},
		{"<> across types", name("Stock").NotEqual(val("10")), stored, true},
		{"<> on a missing attribute", name("Gone").NotEqual(val("x")), stored, true},
		{"= on a missing attribute", name("Gone").Equal(val("x")), stored, false},
		{"< on a missing attribute", name("Gone").LessThan(val(1)), stored, false},
		{"numbers order by value, not text", name("Stock").GreaterThan(val(9)), stored, true},
		{"<= at equality", name("Stock").LessThanEqual(val(10)), stored, true},
		{">= below", name("Stock").GreaterThanEqual(val(11)), stored, false},
		{"strings order by bytes", name("Status").LessThan(val("p")), stored, true},
		{"BETWEEN inclusive", name("Stock").Between(val(10), val(12)), stored, true},
		{"BETWEEN outside", name("Stock").Between(val(11), val(12)), stored, false},
		{"IN one of", name("Status").In(val("closed"), val("open")), stored, true},
		{"IN none of", name("Status").In(val("closed"), val("void")), stored, false},
		{"begins_with", name("Status").BeginsWith("op"), stored, true},
		{"contains a substring", name("Status").Contains("pe"), stored, true},
		{"contains a set element", name("Tags").Contains("y"), stored, true},
		{"contains a list element", expression.Contains(name("List"), "b"), stored, true},
		{"contains nothing", name("Tags").Contains("z"), stored, false},
		{"attribute_type", name("Tags").AttributeType(expression.StringSet), stored, true},
		{"attribute_type wrong", name("Tags").AttributeType(expression.String), stored, false},
		{"size of a set", expression.Size(name("Tags")).Equal(val(2)), stored, true},
		{"size of a string in bytes", expression.Size(name("Status")).GreaterThan(val(3)), stored, true},
		{"AND", name("Status").Equal(val("open")).And(name("Stock").Equal(val(10))), stored, true},
		{"OR", name("Status").Equal(val("closed")).Or(name("Stock").Equal(val(10))), stored, true},
		{"NOT", expression.Not(name("Status").Equal(val("open"))), stored, false},
		{"AND binds before OR", expression.Or(name("Stock").Equal(val(1)), expression.And(name("Status").Equal(val("open")), name("Stock").Equal(val(10)))), stored, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expr, err := expression.NewBuilder().WithCondition(c.cond).Build()
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			got, err := Condition{Expr: *expr.Condition(), Names: expr.Names(), Values: expr.Values()}.Holds(c.item)
			if err != nil || got != c.want {
				t.Errorf("Holds(%q) = %v, %v, want %v", *expr.Condition(), got, err, c.want)
			}
		})
	}
}

func TestConditionPrecedenceAndSyntax(t *testing.T) {
	stored := item("PK", av("A"), "a", av(1), "b", av(2))
	values := map[string]types.AttributeValue{":one": av(1), ":two": av(2), ":three": av(3)}
	cases := []struct {
		expr string
		want bool
	}{
		{"a = :one OR a = :two AND b = :three", true}, // AND first: a = 1 OR (false)
		{"(a = :one OR a = :two) AND b = :three", false},
		{"NOT a = :two AND b = :two", true},
		{"a <> :two", true},
		{"a <= :one and b >= :two", true}, // keywords in any case
		{"", true},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			got, err := Condition{Expr: c.expr, Values: values}.Holds(stored)
			if err != nil || got != c.want {
				t.Errorf("Holds(%q) = %v, %v, want %v", c.expr, got, err, c.want)
			}
		})
	}
	for _, bad := range []string{"a = ", "a == :one", "a = :missing", "(a = :one", "a = :one b", "frobnicate(a)", "length(a) = :one", "a = size(a, b)", "a BETWEEN :one", "#n = :one"} {
		if got, err := (Condition{Expr: bad, Values: values}).Holds(stored); err == nil {
			t.Errorf("Holds(%q) = %v, want an error", bad, got)
		}
	}
}
