package capacity

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// sized builds an item of exactly size bytes: PK and SK, padded with a
// string attribute D.
func sized(pk, sk string, size int) Image {
	item := Image{"PK": s(pk), "SK": s(sk)}
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
		item Image
		want int
	}{
		// name bytes + value bytes
		{"string", Image{"Name": s("Ada")}, 4 + 3},
		{"multi-byte UTF-8", Image{"é": s("ü€")}, 2 + 5},
		{"number, 3 significant digits: 2 bytes + 1", Image{"N": n("123")}, 1 + 3},
		{"number, zeros trimmed: 123", Image{"N": n("-0.0012300")}, 1 + 3},
		{"number 1000 is one significant digit", Image{"N": n("1000")}, 1 + 2},
		{"number zero", Image{"N": n("0")}, 1 + 1},
		{"binary counts raw bytes", Image{"B": &types.AttributeValueMemberB{Value: []byte{1, 2, 3, 4}}}, 1 + 4},
		{"bool", Image{"Ok": &types.AttributeValueMemberBOOL{Value: true}}, 2 + 1},
		{"null", Image{"Gone": &types.AttributeValueMemberNULL{Value: true}}, 4 + 1},
		{"empty list: 3 bytes", Image{"L": &types.AttributeValueMemberL{}}, 1 + 3},
		// 3 overhead + (1 + "ab") + (1 + bool)
		{"list", Image{"L": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("ab"), &types.AttributeValueMemberBOOL{}}}}, 1 + 3 + 3 + 2},
		// 3 overhead + (1 + "a" + "xy") + (1 + "b" + number 5)
		{"map", Image{"M": &types.AttributeValueMemberM{Value: Image{"a": s("xy"), "b": n("5")}}}, 1 + 3 + 4 + 4},
		{"string set", Image{"SS": &types.AttributeValueMemberSS{Value: []string{"ab", "cde"}}}, 2 + 5},
		{"number set", Image{"NS": &types.AttributeValueMemberNS{Value: []string{"1", "12345"}}}, 2 + 2 + 4},
		{"binary set", Image{"BS": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}}}, 2 + 3},
		{"no item", nil, 0},
	}
	for _, tt := range tests {
		if got := Size(tt.item); got != tt.want {
			t.Errorf("%s: Size(%v) = %d, want %d", tt.name, tt.item, got, tt.want)
		}
	}
}

func TestEntrySize(t *testing.T) {
	schema := designs.Schema{PK: "PK", SK: "SK",
		GSIs: []designs.Index{
			{Name: "All", PK: "G", SK: "GS"},
			{Name: "Keys", PK: "G", Projection: types.ProjectionTypeKeysOnly},
			{Name: "Some", PK: "G", Projection: types.ProjectionTypeInclude, NonKey: []string{"Name"}},
		},
		LSIs: []designs.Index{{Name: "Local", SK: "L"}},
	}
	item := Image{"PK": s("p1"), "SK": s("s1"), "G": s("g"), "GS": s("gs"), "Name": s("Ada"), "Note": s("long note")}
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
		got, stored := EntrySize(schema, tt.index, item)
		if got != tt.want || stored != tt.stored {
			t.Errorf("EntrySize(%s) = %d, %v, want %d, %v", tt.index, got, stored, tt.want, tt.stored)
		}
	}
}
