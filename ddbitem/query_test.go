package ddbitem

import (
	"slices"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestRange(t *testing.T) {
	schema := Schema{PK: "PK", SK: "SK", Indexes: []Index{{Name: "G", PK: "GP", SK: "GS", Projection: types.ProjectionTypeKeysOnly}}}
	items := []Item{
		{"PK": s("a"), "SK": n("10"), "GP": s("g"), "GS": s("x")},
		{"PK": s("a"), "SK": n("9"), "GP": s("g"), "GS": s("x")},
		{"PK": s("a"), "SK": n("100")},
		{"PK": s("b"), "SK": n("1"), "GP": s("g"), "GS": s("w"), "Other": s("dropped by KEYS_ONLY")},
	}
	onA := Condition{Expr: "PK = :p AND SK >= :s", Values: map[string]types.AttributeValue{":p": s("a"), ":s": n("9")}}
	onG := Condition{Expr: "GP = :g", Values: map[string]types.AttributeValue{":g": s("g")}}
	sks := func(es []Item) (out []string) {
		for _, e := range es {
			out = append(out, KeyText(e["SK"]))
		}
		return out
	}
	tests := []struct {
		name string
		r    KeyRange
		want []string
	}{
		{"numbers ordered by value", KeyRange{Key: onA, Forward: true}, []string{"9", "10", "100"}},
		{"backward", KeyRange{Key: onA}, []string{"100", "10", "9"}},
		{"after the start key", KeyRange{Key: onA, Forward: true, Start: Item{"PK": s("a"), "SK": n("10")}}, []string{"100"}},
		{"after a start key that is gone", KeyRange{Key: onA, Forward: true, Start: Item{"PK": s("a"), "SK": n("50")}}, []string{"100"}},
		// GS "w" first; the two "x" entries in table key order; the sparse item left out
		{"a GSI's entries, ties in table key order", KeyRange{Index: "G", Key: onG, Forward: true}, []string{"1", "9", "10"}},
		{"a GSI from its start key", KeyRange{Index: "G", Key: onG, Forward: true,
			Start: Item{"GP": s("g"), "GS": s("x"), "PK": s("a"), "SK": n("9")}}, []string{"10"}},
	}
	for _, tt := range tests {
		got, err := schema.Range(items, tt.r)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if g := sks(got); !slices.Equal(g, tt.want) {
			t.Errorf("%s: sort keys %v, want %v", tt.name, g, tt.want)
		}
	}
	got, _ := schema.Range(items, KeyRange{Index: "G", Key: onG, Forward: true})
	if _, ok := got[0]["Other"]; ok {
		t.Errorf("a KEYS_ONLY index's entry kept an attribute it does not project: %v", got[0])
	}
	if !SameKey(got[0], Item{"GP": s("g"), "GS": s("w"), "PK": s("b"), "SK": n("1.0")}) {
		t.Errorf("SameKey: the entry's key compared unequal to its own key (1 and 1.0 are one number)")
	}
}

// BenchmarkRange is what naming a filtered Query's evaluated items costs
// the instrumented client on a table of 10,000 items in 100 partitions.
// go test ./ddbitem -run '^$' -bench Range
func BenchmarkRange(b *testing.B) {
	schema := Schema{PK: "PK", SK: "SK"}
	items := make([]Item, 0, 10000)
	for i := range 10000 {
		items = append(items, Item{"PK": s(string(rune('a' + i%100))), "SK": n(strconv.Itoa(i))})
	}
	r := KeyRange{Forward: true, Key: Condition{Expr: "PK = :p", Values: map[string]types.AttributeValue{":p": s("a")}}}
	for b.Loop() {
		if _, err := schema.Range(items, r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCompareKeyOrdersAsDynamoDBSortsAPartition(t *testing.T) {
	tests := []struct {
		name string
		a, b types.AttributeValue
		want int
	}{
		{"numbers by value", n("10"), n("9.5"), 1},
		{"numbers past float64's precision", n("9007199254740993"), n("9007199254740992"), 1},
		{"equal numbers however written", n("1.50"), n("15e-1"), 0},
		{"strings by bytes", s("B"), s("a"), -1},
		{"binaries by bytes", &types.AttributeValueMemberB{Value: []byte{1}}, &types.AttributeValueMemberB{Value: []byte{0, 9}}, 1},
		{"a missing value first", nil, s("a"), -1},
		{"types apart, by name", n("1"), s("1"), -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CompareKey(tc.a, tc.b); got != tc.want {
				t.Errorf("CompareKey = %d, want %d", got, tc.want)
			}
		})
	}
}
