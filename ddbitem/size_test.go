package ddbitem

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// sized builds an item of exactly size bytes: PK and SK, padded with a
// string attribute D.
func sized(pk, sk string, size int) Item {
	item := Item{"PK": s(pk), "SK": s(sk)}
	pad := size - Size(item) - len("D")
	if pad < 0 {
		panic("item too small for its keys")
	}
	item["D"] = s(strings.Repeat("x", pad))
	return item
}

func TestSize(t *testing.T) {
	tests := []struct {
		name string
		item Item
		want int
	}{
		// name bytes + value bytes
		{"string", Item{"Name": s("Ada")}, 4 + 3},
		{"multi-byte UTF-8", Item{"é": s("ü€")}, 2 + 5},
		{"number, 3 significant digits: 2 bytes + 1", Item{"N": n("123")}, 1 + 3},
		// was 1 + 3: the minus sign costs a byte (-42 measures 3 against 42's
		// 2; see size_real_test.go); 0.00|12|30 is two base-100 digits.
		{"number, zeros trimmed, negative: 123", Item{"N": n("-0.0012300")}, 1 + 4},
		{"number 1000 is one significant digit", Item{"N": n("1000")}, 1 + 2},
		{"number zero", Item{"N": n("0")}, 1 + 1},
		// Digit pairs align on the decimal point (1.5 is 3 bytes, 15 is 2,
		// measured); where trimmed zeros leave an odd gap, inferred:
		{"number 120 is 01|20: inferred", Item{"N": n("120")}, 1 + 3},
		{"number 0.015 is .01|50: inferred", Item{"N": n("0.015")}, 1 + 3},
		{"number 1.2E3 is 12|00: inferred", Item{"N": n("1.2E3")}, 1 + 2},
		{"empty string: its name alone, inferred", Item{"S": s("")}, 1},
		{"binary counts raw bytes", Item{"B": &types.AttributeValueMemberB{Value: []byte{1, 2, 3, 4}}}, 1 + 4},
		{"bool", Item{"Ok": &types.AttributeValueMemberBOOL{Value: true}}, 2 + 1},
		{"null", Item{"Gone": &types.AttributeValueMemberNULL{Value: true}}, 4 + 1},
		{"empty list: 3 bytes", Item{"L": &types.AttributeValueMemberL{}}, 1 + 3},
		{"empty map: 3 bytes", Item{"M": &types.AttributeValueMemberM{}}, 1 + 3},
		// 3 overhead + (1 + "ab") + (1 + bool)
		{"list", Item{"L": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("ab"), &types.AttributeValueMemberBOOL{}}}}, 1 + 3 + 3 + 2},
		// 3 overhead + (1 + "a" + "xy") + (1 + "b" + number 5)
		{"map", Item{"M": &types.AttributeValueMemberM{Value: Item{"a": s("xy"), "b": n("5")}}}, 1 + 3 + 4 + 4},
		{"string set", Item{"SS": &types.AttributeValueMemberSS{Value: []string{"ab", "cde"}}}, 2 + 5},
		{"number set", Item{"NS": &types.AttributeValueMemberNS{Value: []string{"1", "12345"}}}, 2 + 2 + 4},
		{"binary set", Item{"BS": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}}}, 2 + 3},
		{"no item", nil, 0},
	}
	for _, tt := range tests {
		if got := Size(tt.item); got != tt.want {
			t.Errorf("%s: Size(%v) = %d, want %d", tt.name, tt.item, got, tt.want)
		}
	}
}

func TestEntryOf(t *testing.T) {
	schema := Schema{PK: "PK", SK: "SK", Indexes: []Index{
		{Name: "All", PK: "G", SK: "GS", Projection: types.ProjectionTypeAll},
		{Name: "Keys", PK: "G", Projection: types.ProjectionTypeKeysOnly},
		{Name: "Some", PK: "G", Projection: types.ProjectionTypeInclude, NonKey: []string{"Name"}},
		{Name: "Local", PK: "PK", SK: "L", Local: true, Projection: types.ProjectionTypeAll},
	}}
	item := Item{"PK": s("p1"), "SK": s("s1"), "G": s("g"), "GS": s("gs"), "Name": s("Ada"), "Note": s("long note")}
	tests := []struct {
		index  string
		want   int
		stored bool
	}{
		{"All", Size(item), true},
		{"Keys", (2 + 2) + (2 + 2) + (1 + 1), true},           // PK, SK, G
		{"Some", (2 + 2) + (2 + 2) + (1 + 1) + (4 + 3), true}, // and Name
		{"Local", 0, false},                                   // no L: sparse
		{"Missing", 0, false},
	}
	for _, tt := range tests {
		e := schema.EntryOf(tt.index, item)
		got, stored := Size(e), e != nil
		if got != tt.want || stored != tt.stored {
			t.Errorf("Size(EntryOf(%s)) = %d, %v, want %d, %v", tt.index, got, stored, tt.want, tt.stored)
		}
	}
}
