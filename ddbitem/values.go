package ddbitem

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxNumberScale bounds the digits after the point of a computed number:
// DynamoDB numbers carry up to 38 digits of precision, and DynamoDB trims
// leading and trailing zeros.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number
const maxNumberScale = 38

var errTypes = errors.New("operand types do not match")

// arithmetic is SET's a + b or a - b; both must be numbers.
func arithmetic(a, b types.AttributeValue, minus bool) (types.AttributeValue, error) {
	na, okA := a.(*types.AttributeValueMemberN)
	nb, okB := b.(*types.AttributeValueMemberN)
	if !okA || !okB {
		return nil, fmt.Errorf("%s: want numbers: %w", map[bool]string{false: "+", true: "-"}[minus], errTypes)
	}
	return sumNumbers(na.Value, nb.Value, minus)
}

func sumNumbers(a, b string, minus bool) (*types.AttributeValueMemberN, error) {
	x, okX := new(big.Rat).SetString(a)
	y, okY := new(big.Rat).SetString(b)
	if !okX || !okY {
		return nil, fmt.Errorf("numbers %q and %q: not decimal", a, b)
	}
	if minus {
		y.Neg(y)
	}
	return &types.AttributeValueMemberN{Value: formatNumber(x.Add(x, y))}, nil
}

// formatNumber writes r as DynamoDB returns numbers: no exponent, no
// trailing zeros after the point.
func formatNumber(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(maxNumberScale)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// addTo is ADD on an existing attribute: a sum for numbers, a union for
// sets of one type.
func addTo(cur, v types.AttributeValue) (types.AttributeValue, error) {
	switch c := cur.(type) {
	case *types.AttributeValueMemberN:
		n, ok := v.(*types.AttributeValueMemberN)
		if !ok {
			return nil, errTypes
		}
		return sumNumbers(c.Value, n.Value, false)
	case *types.AttributeValueMemberSS:
		s, ok := v.(*types.AttributeValueMemberSS)
		if !ok {
			return nil, errTypes
		}
		return &types.AttributeValueMemberSS{Value: union(c.Value, s.Value, strEq)}, nil
	case *types.AttributeValueMemberNS:
		s, ok := v.(*types.AttributeValueMemberNS)
		if !ok {
			return nil, errTypes
		}
		return &types.AttributeValueMemberNS{Value: union(c.Value, s.Value, numEq)}, nil
	case *types.AttributeValueMemberBS:
		s, ok := v.(*types.AttributeValueMemberBS)
		if !ok {
			return nil, errTypes
		}
		return &types.AttributeValueMemberBS{Value: union(c.Value, s.Value, bytes.Equal)}, nil
	}
	return nil, fmt.Errorf("ADD to %T: %w", cur, errTypes)
}

// deleteFrom is DELETE: the set without the given elements, nil when
// nothing is left (DynamoDB then removes the attribute).
func deleteFrom(cur, v types.AttributeValue) (types.AttributeValue, error) {
	switch c := cur.(type) {
	case *types.AttributeValueMemberSS:
		s, ok := v.(*types.AttributeValueMemberSS)
		if !ok {
			return nil, errTypes
		}
		if rest := minus(c.Value, s.Value, strEq); len(rest) > 0 {
			return &types.AttributeValueMemberSS{Value: rest}, nil
		}
		return nil, nil
	case *types.AttributeValueMemberNS:
		s, ok := v.(*types.AttributeValueMemberNS)
		if !ok {
			return nil, errTypes
		}
		if rest := minus(c.Value, s.Value, numEq); len(rest) > 0 {
			return &types.AttributeValueMemberNS{Value: rest}, nil
		}
		return nil, nil
	case *types.AttributeValueMemberBS:
		s, ok := v.(*types.AttributeValueMemberBS)
		if !ok {
			return nil, errTypes
		}
		if rest := minus(c.Value, s.Value, bytes.Equal); len(rest) > 0 {
			return &types.AttributeValueMemberBS{Value: rest}, nil
		}
		return nil, nil
	}
	return nil, fmt.Errorf("DELETE from %T: %w", cur, errTypes)
}

// union keeps set's order and appends the new elements of add. Adds are
// usually one or two elements into a set that may hold thousands (the
// account pool's status items), so a scan of set per element beats a map.
func union[T any](set, add []T, eq func(a, b T) bool) []T {
	out := slices.Clip(set)
	for _, x := range add {
		if !slices.ContainsFunc(out, func(y T) bool { return eq(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

// minus is set without the elements of drop, in set's order.
func minus[T any](set, drop []T, eq func(a, b T) bool) []T {
	return slices.DeleteFunc(slices.Clone(set), func(x T) bool {
		return slices.ContainsFunc(drop, func(y T) bool { return eq(x, y) })
	})
}
