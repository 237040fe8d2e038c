package ddbitem

import (
	"bytes"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Equal reports whether a and b are the same item to DynamoDB: the same
// attributes, each of the same type and value, numbers compared by value
// ("1.50" equals "1.5"), sets in any order. nil equals only an empty item.
func Equal(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for name, v := range a {
		w, ok := b[name]
		if !ok || !EqualValue(v, w) {
			return false
		}
	}
	return true
}

// EqualValue reports whether two attribute values are equal as Equal
// compares them.
func EqualValue(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && numEq(a.Value, b.Value)
	case *types.AttributeValueMemberB:
		b, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(a.Value, b.Value)
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		b, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(a.Value, b.Value)
	case *types.AttributeValueMemberNS:
		b, ok := b.(*types.AttributeValueMemberNS)
		return ok && (sameSet(a.Value, b.Value) || sameSet(canonicalNumbers(a.Value), canonicalNumbers(b.Value)))
	case *types.AttributeValueMemberBS:
		b, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(byteStrings(a.Value), byteStrings(b.Value))
	case *types.AttributeValueMemberL:
		b, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(a.Value, b.Value, EqualValue)
	case *types.AttributeValueMemberM:
		b, ok := b.(*types.AttributeValueMemberM)
		return ok && Equal(a.Value, b.Value)
	}
	return false
}

func strEq(a, b string) bool { return a == b }

// numEq compares numbers by value: "1.0" and "1" are one number.
func numEq(a, b string) bool { return a == b || CanonicalNumber(a) == CanonicalNumber(b) }

// CanonicalNumber writes a DynamoDB number by its exact value, so that
// equal numbers are equal text ("1.50", "1.5" and "15e-1" alike); text
// that is not a number is returned as it is.
func CanonicalNumber(n string) string {
	if plainInteger(n) { // most keys and counters: already canonical, and parsing them costs
		return n
	}
	if r, ok := new(big.Rat).SetString(n); ok {
		return r.RatString()
	}
	return n
}

// plainInteger reports whether n is an integer written as CanonicalNumber
// writes it: an optional minus, then digits without a leading zero ("0"
// alone, never "-0").
func plainInteger(n string) bool {
	d := strings.TrimPrefix(n, "-")
	if d == "" || (d[0] == '0' && len(n) > 1) {
		return false
	}
	for i := range len(d) {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// sameSet compares sets of text, which carry no order. Sets can hold
// thousands of elements (a status item's members), so it sorts copies
// rather than searching one in the other.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if slices.Equal(a, b) {
		return true
	}
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// canonicalNumbers is CanonicalNumber of each.
func canonicalNumbers(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = CanonicalNumber(n)
	}
	return out
}

func byteStrings(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
