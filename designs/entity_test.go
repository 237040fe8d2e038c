package designs_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

type (
	user  struct{ ID string }
	photo struct{ ID string }
)

// decoders read "USER#<id>" as a user and "PHOTO#<id>" as a photo.
var decoders = []designs.TypeDecoder[any]{
	{Type: "user", Decode: prefixed("USER#", func(id string) any { return user{id} })},
	{Type: "photo", Decode: prefixed("PHOTO#", func(id string) any { return photo{id} })},
}

func prefixed(prefix string, build func(string) any) designs.Decoder[any] {
	return func(item map[string]types.AttributeValue) (any, bool, error) {
		pk, _ := designs.KeyText(item, "PK")
		if len(pk) <= len(prefix) || pk[:len(prefix)] != prefix {
			return nil, false, nil
		}
		return build(pk[len(prefix):]), true, nil
	}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func TestDecodeReadsByTypeThenByLayout(t *testing.T) {
	for _, c := range []struct {
		name string
		item map[string]types.AttributeValue
		want any
		err  error
	}{
		{"by its type", map[string]types.AttributeValue{"PK": s("PHOTO#1"), "T": s("photo")}, photo{"1"}, nil},
		{"without a type, by the first layout it fits", map[string]types.AttributeValue{"PK": s("PHOTO#2")}, photo{"2"}, nil},
		{"a type no entity has", map[string]types.AttributeValue{"PK": s("USER#1"), "T": s("robot")}, nil, designs.ErrInvalidInput},
		{"a type whose layout the keys do not fit", map[string]types.AttributeValue{"PK": s("PHOTO#1"), "T": s("user")}, nil, designs.ErrInvalidInput},
		{"no type and no layout", map[string]types.AttributeValue{"PK": s("OTHER#1")}, nil, designs.ErrInvalidInput},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := designs.Decode(c.item, "T", decoders)
			if !errors.Is(err, c.err) || (c.err == nil && got != c.want) {
				t.Errorf("Decode = %v, %v; want %v, %v", got, err, c.want, c.err)
			}
		})
	}
}

func TestKeyTextReadsStringAndNumberKeys(t *testing.T) {
	item := map[string]types.AttributeValue{"S": s("a#1"), "N": &types.AttributeValueMemberN{Value: "42"}, "B": &types.AttributeValueMemberB{Value: []byte("x")}}
	for name, want := range map[string]string{"S": "a#1", "N": "42"} {
		if got, ok := designs.KeyText(item, name); !ok || got != want {
			t.Errorf("KeyText(%s) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"B", "missing"} {
		if got, ok := designs.KeyText(item, name); ok {
			t.Errorf("KeyText(%s) = %q, true; want not found", name, got)
		}
	}
}

func TestItemTypeReadsTheTypeAttributeThenTheKeyShape(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	declared := designs.Schema{PK: "PK", TypeAttribute: "kind"}
	tests := []struct {
		name   string
		schema designs.Schema
		item   map[string]types.AttributeValue
		want   string
	}{
		{"the declared attribute", declared, map[string]types.AttributeValue{"PK": s("USER#1"), "kind": s("user"), "Type": s("other")}, "user"},
		{"only the declared one", declared, map[string]types.AttributeValue{"PK": s("USER#1"), "Type": s("other")}, "USER#"},
		{"a common attribute", designs.Schema{PK: "PK"}, map[string]types.AttributeValue{"PK": s("USER#1"), "type": s("user")}, "user"},
		{"the most usual common attribute first", designs.Schema{PK: "PK"}, map[string]types.AttributeValue{"PK": s("x"), "type": s("b"), "EntityType": s("a")}, "a"},
		{"the key up to its first #", designs.Schema{PK: "PK"}, map[string]types.AttributeValue{"PK": s("ORG#1#TEAM#2")}, "ORG#"},
		{"a key without #, whole", designs.Schema{PK: "PK"}, map[string]types.AttributeValue{"PK": s("global")}, "global"},
		{"an index entry's own key", designs.Schema{PK: "PK"}, map[string]types.AttributeValue{"GSI1PK": s("EMAIL#a@b")}, "EMAIL#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pk := "PK"
			if _, ok := tc.item["GSI1PK"]; ok {
				pk = "GSI1PK"
			}
			if got := tc.schema.ItemType(tc.item, pk); got != tc.want {
				t.Errorf("ItemType = %q, want %q", got, tc.want)
			}
		})
	}
}
