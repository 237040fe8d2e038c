package ddbtest

import (
	"encoding/base64"
	"math/big"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Canonical renders an item as plain values that compare equal exactly when
// DynamoDB holds the same item: every type kept apart, numbers by their
// exact decimal value, sets in sorted order. A missing item is nil.
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
func canonicalNumber(n string) string {
	r, ok := new(big.Rat).SetString(n)
	Expect(ok).To(BeTrue(), "number %q", n)
	return r.RatString()
}
