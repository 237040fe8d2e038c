package ddbtest

import (
	"encoding/base64"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega/gcustom"
	gtypes "github.com/onsi/gomega/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// SameItem matches an item DynamoDB holds the same as want (ddbitem.Equal:
// numbers by value, sets in any order; nil matches nil); a failure shows
// both in Canonical form.
func SameItem(want map[string]types.AttributeValue) gtypes.GomegaMatcher {
	shown := &itemPair{Want: Canonical(want)}
	return gcustom.MakeMatcher(func(got map[string]types.AttributeValue) (bool, error) {
		shown.Got = Canonical(got)
		return ddbitem.Equal(got, want), nil
	}).WithTemplate("Expected\n{{format .Data.Got 1}}\n{{.To}} be the same item as\n{{format .Data.Want 1}}", shown)
}

// itemPair is what a SameItem failure shows.
type itemPair struct{ Got, Want map[string]any }

// Canonical renders an item as plain values that compare equal exactly
// when ddbitem.Equal holds: every type kept apart, numbers by their exact
// value (ddbitem.CanonicalNumber), sets in sorted order; for readable
// failures and for matchers over many items (ConsistOf). A missing item
// is nil.
func Canonical(item map[string]types.AttributeValue) map[string]any {
	if item == nil {
		return nil
	}
	out := make(map[string]any, len(item))
	for name, v := range item {
		out[name] = canonicalValue(v)
	}
	return out
}

func canonicalValue(v types.AttributeValue) any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "S " + v.Value
	case *types.AttributeValueMemberN:
		return "N " + canonicalNumber(v.Value)
	case *types.AttributeValueMemberB:
		return "B " + base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return v.Value
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": slices.Sorted(slices.Values(v.Value))}
	case *types.AttributeValueMemberNS:
		ns := make([]string, len(v.Value))
		for i, n := range v.Value {
			ns[i] = canonicalNumber(n)
		}
		slices.Sort(ns)
		return map[string]any{"NS": ns}
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(v.Value))
		for i, b := range v.Value {
			bs[i] = base64.StdEncoding.EncodeToString(b)
		}
		slices.Sort(bs)
		return map[string]any{"BS": bs}
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = canonicalValue(e)
		}
		return l
	case *types.AttributeValueMemberM:
		return map[string]any{"M": Canonical(v.Value)}
	}
	Fail("unknown attribute value type")
	return nil
}

// canonicalNumber is a DynamoDB number's exact value ("1.50" and "1.5" alike).
func canonicalNumber(n string) string { return ddbitem.CanonicalNumber(n) }
