package ddbitem

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
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
func formatNumber(r *big.Rat) string { return plainDecimal(r, maxNumberScale) }

// plainDecimal writes r with at most scale digits after the point, then
// drops the trailing zeros.
func plainDecimal(r *big.Rat, scale int) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(scale)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// StoredNumber writes n, a number as DynamoDB accepts one, as DynamoDB
// stores and returns it: its exact value without exponent or leading and
// trailing zeros ("1.50" and "15e-1" are "1.5", "+007" is "7"). Text that
// is not digits with an optional sign, point and exponent (NaN, Inf, hex,
// a fraction), more than 38 significant digits, or a magnitude outside
// 1E-130 to 9.99…E+125 is an error that says which.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number
func StoredNumber(n string) (string, error) {
	if !numberSyntax.MatchString(n) {
		return "", fmt.Errorf("%q: want a number written as a string of digits, e.g. \"42\" or \"-1.5e3\" (not NaN, Inf or hex)", n)
	}
	outside := func() error {
		return fmt.Errorf("%q is outside DynamoDB's range of numbers: 1E-130 to 9.9999999999999999999999999999999999999E+125 either side of zero", n)
	}
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	e := 0
	if exp != "" {
		var err error
		if e, err = strconv.Atoi(exp); err != nil {
			return "", outside()
		}
	}
	digits := strings.Trim(strings.NewReplacer("+", "", "-", "", ".", "").Replace(mant), "0")
	if digits == "" {
		return "0", nil
	}
	// Bound the work before computing: m×10^e with D digits lies between
	// 10^(e−D) and 10^(e+D).
	if d := len(mant); e >= d+126 || e <= -d-130 {
		return "", outside()
	}
	if len(digits) > maxNumberScale {
		return "", fmt.Errorf("%q has %d significant digits: DynamoDB keeps at most %d", n, len(digits), maxNumberScale)
	}
	r, _ := new(big.Rat).SetString(n)
	// The digits after the point that n's value needs: those it writes,
	// less its exponent.
	_, frac, _ := strings.Cut(mant, ".")
	out := plainDecimal(r, max(len(frac)-e, 0))
	whole, after, _ := strings.Cut(strings.TrimPrefix(out, "-"), ".")
	if len(whole) > 126 || (whole == "0" && len(after)-len(strings.TrimLeft(after, "0")) >= 130) {
		return "", outside()
	}
	return out, nil
}

// numberSyntax is a number as DynamoDB takes one: decimal digits with an
// optional sign, point and exponent; not NaN, Inf or hex, which Go's own
// parsers take.
var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// addTo is ADD on an existing attribute: a sum for numbers, a union for
// sets of one type.
func addTo(cur, v types.AttributeValue) (types.AttributeValue, error) {
	if c, ok := cur.(*types.AttributeValueMemberN); ok {
		n, ok := v.(*types.AttributeValueMemberN)
		if !ok {
			return nil, errTypes
		}
		return sumNumbers(c.Value, n.Value, false)
	}
	return setOp(cur, v, true)
}

// deleteFrom is DELETE: the set without the given elements, nil when
// nothing is left (DynamoDB then removes the attribute).
func deleteFrom(cur, v types.AttributeValue) (types.AttributeValue, error) {
	return setOp(cur, v, false)
}

// setOp is ADD's union (add) or DELETE's difference of two sets of one
// type, elements compared as DynamoDB does: numbers by value.
func setOp(cur, v types.AttributeValue, add bool) (types.AttributeValue, error) {
	switch c := cur.(type) {
	case *types.AttributeValueMemberSS:
		if s, ok := v.(*types.AttributeValueMemberSS); ok {
			return asSet(combine(c.Value, s.Value, strEq, add), func(e []string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: e} })
		}
	case *types.AttributeValueMemberNS:
		if s, ok := v.(*types.AttributeValueMemberNS); ok {
			return asSet(combine(c.Value, s.Value, numEq, add), func(e []string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: e} })
		}
	case *types.AttributeValueMemberBS:
		if s, ok := v.(*types.AttributeValueMemberBS); ok {
			return asSet(combine(c.Value, s.Value, bytes.Equal, add), func(e [][]byte) types.AttributeValue { return &types.AttributeValueMemberBS{Value: e} })
		}
	default:
		return nil, fmt.Errorf("%s %T: %w", map[bool]string{true: "ADD to", false: "DELETE from"}[add], cur, errTypes)
	}
	return nil, errTypes
}

// combine is the union of set and other (add), or set without other.
func combine[T any](set, other []T, eq func(a, b T) bool, add bool) []T {
	if add {
		return union(set, other, eq)
	}
	return minus(set, other, eq)
}

// asSet makes a set of elems, or nil when there are none: DynamoDB has no
// empty set.
func asSet[T any](elems []T, set func([]T) types.AttributeValue) (types.AttributeValue, error) {
	if len(elems) == 0 {
		return nil, nil
	}
	return set(elems), nil
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
