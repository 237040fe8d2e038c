package ddbitem

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestJSON(t *testing.T) {
	item := Item{
		"S":    s("x"),
		"N":    n("1.50"),
		"B":    &types.AttributeValueMemberB{Value: []byte("hi")},
		"BOOL": &types.AttributeValueMemberBOOL{Value: true},
		"NULL": &types.AttributeValueMemberNULL{Value: true},
		"SS":   &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"NS":   &types.AttributeValueMemberNS{Value: []string{"2", "10.0"}},
		"BS":   &types.AttributeValueMemberBS{Value: [][]byte{[]byte("z"), []byte("a")}},
		"L":    &types.AttributeValueMemberL{Value: []types.AttributeValue{n("3.0"), s("y")}},
		"M":    &types.AttributeValueMemberM{Value: Item{"in": n("0.5e1")}},
		"E":    &types.AttributeValueMemberM{},
	}
	tests := []struct {
		name   string
		render func(Item) map[string]any
		want   string
	}{
		{"as written", JSON, `{"B":{"B":"aGk="},"BOOL":{"BOOL":true},"BS":{"BS":["YQ==","eg=="]},"E":{"M":{}},` +
			`"L":{"L":[{"N":"3.0"},{"S":"y"}]},"M":{"M":{"in":{"N":"0.5e1"}}},"N":{"N":"1.50"},"NS":{"NS":["10.0","2"]},` +
			`"NULL":{"NULL":true},"S":{"S":"x"},"SS":{"SS":["a","b"]}}`},
		{"canonical", CanonicalJSON, `{"B":{"B":"aGk="},"BOOL":{"BOOL":true},"BS":{"BS":["YQ==","eg=="]},"E":{"M":{}},` +
			`"L":{"L":[{"N":"3"},{"S":"y"}]},"M":{"M":{"in":{"N":"5"}}},"N":{"N":"3/2"},"NS":{"NS":["10","2"]},` +
			`"NULL":{"NULL":true},"S":{"S":"x"},"SS":{"SS":["a","b"]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.render(item))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b, tc.want)
			}
		})
	}
}

// CanonicalJSON renders two items alike exactly when Equal holds.
func TestCanonicalJSONFollowsEqual(t *testing.T) {
	pairs := []struct {
		name string
		a, b Item
	}{
		{"numbers by value", Item{"n": n("1.50")}, Item{"n": n("15e-1")}},
		{"sets in any order", Item{"s": &types.AttributeValueMemberNS{Value: []string{"1", "2"}}}, Item{"s": &types.AttributeValueMemberNS{Value: []string{"2.0", "1"}}}},
		{"string and number apart", Item{"v": s("1")}, Item{"v": n("1")}},
		{"set and list apart", Item{"v": &types.AttributeValueMemberSS{Value: []string{"a"}}}, Item{"v": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a")}}}},
		{"other values", Item{"v": s("a")}, Item{"v": s("b")}},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			a, _ := json.Marshal(CanonicalJSON(p.a))
			b, _ := json.Marshal(CanonicalJSON(p.b))
			if (string(a) == string(b)) != Equal(p.a, p.b) {
				t.Errorf("CanonicalJSON %s and %s; Equal says %v", a, b, Equal(p.a, p.b))
			}
		})
	}
}

// CanonicalNumber's shortcut for plain integers writes what big.Rat does.
func TestCanonicalNumberShortcutAgreesWithRat(t *testing.T) {
	for _, in := range []string{"0", "-0", "7", "-7", "007", "-05", "+5", "10", "12345678901234567890", "1.50", "15e-1", "-", "", "x1"} {
		t.Run(in, func(t *testing.T) {
			want := in
			if r, ok := new(big.Rat).SetString(in); ok {
				want = r.RatString()
			}
			if got := CanonicalNumber(in); got != want {
				t.Errorf("CanonicalNumber(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func BenchmarkKeyIDOfNumberKeys(b *testing.B) {
	s := Schema{PK: "PK", SK: "SK"}
	item := Item{"PK": n("1234567"), "SK": n("42")}
	for b.Loop() {
		if _, ok := s.KeyID(item); !ok {
			b.Fatal("no key")
		}
	}
}

// StoredNumber writes numbers as DynamoDB returns them, exactly, and
// refuses what DynamoDB refuses, saying why.
func TestStoredNumber(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"7", "7"}, {"+007", "7"}, {"-0", "0"}, {"1.50", "1.5"}, {"15e-1", "1.5"}, {"1.0", "1"},
		{".5", "0.5"}, {"1.", "1"}, {"-0.050", "-0.05"}, {"1E3", "1000"}, {"1E+3", "1000"}, {"2.5e2", "250"},
		{"0e99999", "0"}, {"1e-40", "0.0000000000000000000000000000000000000001"},
		{"123456789012345678901234567890.12345678", "123456789012345678901234567890.12345678"},
		{"1e125", "1" + strings.Repeat("0", 125)}, {"-1e-130", "-0." + strings.Repeat("0", 129) + "1"},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got, err := StoredNumber(c.in); err != nil || got != c.want {
				t.Errorf("StoredNumber(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
	for _, c := range []struct{ in, says string }{
		{"", "a number written as a string"}, {"NaN", "not NaN, Inf or hex"}, {"0x10", "not NaN, Inf or hex"},
		{"19/2", "a number written as a string"}, {"1e", "a number written as a string"},
		{"1e126", "outside DynamoDB's range"}, {"1e-131", "outside DynamoDB's range"}, {"1e99999999999999999999", "outside DynamoDB's range"},
		{"1234567890123456789012345678901234567891", "40 significant digits"},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got, err := StoredNumber(c.in); err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("StoredNumber(%q) = %q, %v; want an error saying %q", c.in, got, err, c.says)
			}
		})
	}
}
