package ddbitem

import (
	"bytes"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Condition is an expression with its placeholders: a ConditionExpression,
// a FilterExpression, or an UpdateExpression.
type Condition struct {
	Expr   string
	Names  map[string]string
	Values map[string]types.AttributeValue
}

// Holds reports whether item (nil: no item) satisfies the condition
// expression c, as DynamoDB evaluates a ConditionExpression or a
// FilterExpression: comparisons (= <> < <= > >=), BETWEEN, IN, AND, OR, NOT,
// parentheses, and the functions attribute_exists, attribute_not_exists,
// attribute_type, begins_with, contains and size. An operand that names an
// attribute the item lacks makes every comparison false but <>, which it
// makes true; operands of different types are unequal and unordered. An
// empty expression holds. The error names what the expression got wrong.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html
// and, for a missing operand under <>, real DynamoDB as measured in
// https://github.com/ExtendDB/extenddb/pull/5
func (c Condition) Holds(item Item) (bool, error) {
	holds, err := c.compile()
	if err != nil {
		return false, err
	}
	return holds(item)
}

// compile reads c's tokens once, for evaluating it on many items.
func (c Condition) compile() (func(Item) (bool, error), error) {
	if strings.TrimSpace(c.Expr) == "" {
		return func(Item) (bool, error) { return true, nil }, nil
	}
	toks, err := tokenize(c.Expr)
	if err != nil {
		return nil, err
	}
	return func(item Item) (bool, error) {
		r := &exprReader{expr: c.Expr, toks: toks, names: c.Names, values: c.Values}
		ok, err := r.or(item)
		if err != nil {
			return false, err
		}
		if t, more := r.peek(); more {
			return false, r.errorf("unexpected %q", t.text)
		}
		return ok, nil
	}, nil
}

// Precedence, lowest first: OR, AND, NOT, then comparisons, BETWEEN, IN
// and functions; parentheses group.

func (r *exprReader) or(item Item) (bool, error) {
	ok, err := r.and(item)
	for err == nil && r.keyword("OR") {
		var right bool
		right, err = r.and(item)
		ok = ok || right
	}
	return ok, err
}

func (r *exprReader) and(item Item) (bool, error) {
	ok, err := r.not(item)
	for err == nil && r.keyword("AND") {
		var right bool
		right, err = r.not(item)
		ok = ok && right
	}
	return ok, err
}

func (r *exprReader) not(item Item) (bool, error) {
	if r.keyword("NOT") {
		ok, err := r.not(item)
		return !ok, err
	}
	return r.predicate(item)
}

// keyword consumes the keyword w (any case) if it comes next.
func (r *exprReader) keyword(w string) bool {
	if t, ok := r.peek(); ok && t.kind == tokName && strings.EqualFold(t.text, w) {
		r.pos++
		return true
	}
	return false
}

// predicate reads a parenthesised condition, a boolean function, or a
// comparison, BETWEEN or IN on an operand.
func (r *exprReader) predicate(item Item) (bool, error) {
	if r.accept("(") {
		ok, err := r.or(item)
		if err != nil {
			return false, err
		}
		return ok, r.expect(")")
	}
	if t, ok := r.peek(); ok && t.kind == tokName && r.pos+1 < len(r.toks) && r.toks[r.pos+1].text == "(" {
		switch t.text {
		case "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains":
			r.pos += 2
			return r.boolFunction(item, t.text)
		}
	}
	left, err := r.operand(item, inCondition)
	if err != nil {
		return false, err
	}
	switch {
	case r.keyword("BETWEEN"):
		low, err := r.operand(item, inCondition)
		if err != nil {
			return false, err
		}
		if !r.keyword("AND") {
			return false, r.errorf("BETWEEN wants AND")
		}
		high, err := r.operand(item, inCondition)
		if err != nil {
			return false, err
		}
		return compare(left, low, ">=") && compare(left, high, "<="), nil
	case r.keyword("IN"):
		if err := r.expect("("); err != nil {
			return false, err
		}
		found := false
		for {
			v, err := r.operand(item, inCondition)
			if err != nil {
				return false, err
			}
			found = found || compare(left, v, "=")
			if !r.accept(",") {
				break
			}
		}
		return found, r.expect(")")
	}
	op, err := r.comparator()
	if err != nil {
		return false, err
	}
	right, err := r.operand(item, inCondition)
	if err != nil {
		return false, err
	}
	return compare(left, right, op), nil
}

// comparator reads = <> < <= > >=.
func (r *exprReader) comparator() (string, error) {
	switch {
	case r.accept("="):
		return "=", nil
	case r.accept("<"):
		if r.accept(">") {
			return "<>", nil
		}
		if r.accept("=") {
			return "<=", nil
		}
		return "<", nil
	case r.accept(">"):
		if r.accept("=") {
			return ">=", nil
		}
		return ">", nil
	}
	return "", r.errorf("want a comparator, BETWEEN or IN")
}

// size evaluates size(path) in a condition, its name and opening
// parenthesis read: the length of what the path holds, or no operand (nil)
// when the item lacks the path or its type has no size.
func (r *exprReader) size(item Item, name string) (types.AttributeValue, error) {
	if name != "size" {
		return nil, r.errorf("unknown function %s: a condition's operand calls size only", name)
	}
	v, err := r.pathValue(item)
	if err != nil {
		return nil, err
	}
	if err := r.expect(")"); err != nil {
		return nil, err
	}
	if n, ok := sizeOf(v); ok {
		return &types.AttributeValueMemberN{Value: n.String()}, nil
	}
	return nil, nil
}

// pathValue reads a document path and returns its value in item (nil when
// the item lacks it).
func (r *exprReader) pathValue(item Item) (types.AttributeValue, error) {
	t, _ := r.next()
	p, err := r.path(t)
	if err != nil {
		return nil, err
	}
	v, _ := p.get(item)
	return v, nil
}

// boolFunction evaluates a function that is a condition of its own; its
// name and opening parenthesis are read.
func (r *exprReader) boolFunction(item Item, name string) (bool, error) {
	v, err := r.pathValue(item)
	if err != nil {
		return false, err
	}
	var ok bool
	switch name {
	case "attribute_exists":
		ok = v != nil
	case "attribute_not_exists":
		ok = v == nil
	default:
		if err := r.expect(","); err != nil {
			return false, err
		}
		arg, err := r.operand(item, inCondition)
		if err != nil {
			return false, err
		}
		switch name {
		case "attribute_type":
			want, isS := arg.(*types.AttributeValueMemberS)
			if !isS {
				return false, r.errorf("attribute_type wants a type name")
			}
			ok = v != nil && TypeName(v) == want.Value
		case "begins_with":
			ok = beginsWith(v, arg)
		case "contains":
			ok = contains(v, arg)
		}
	}
	return ok, r.expect(")")
}

// TypeName is the DynamoDB type descriptor of v: S, N, B, SS, NS, BS, BOOL,
// NULL, L or M.
func TypeName(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberM:
		return "M"
	}
	return ""
}

// sizeOf is size(): the bytes of a string or binary, the elements of
// a set, list or map.
func sizeOf(v types.AttributeValue) (*big.Int, bool) {
	var n int
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		n = len(v.Value) // UTF-8 bytes
	case *types.AttributeValueMemberB:
		n = len(v.Value)
	case *types.AttributeValueMemberSS:
		n = len(v.Value)
	case *types.AttributeValueMemberNS:
		n = len(v.Value)
	case *types.AttributeValueMemberBS:
		n = len(v.Value)
	case *types.AttributeValueMemberL:
		n = len(v.Value)
	case *types.AttributeValueMemberM:
		n = len(v.Value)
	default:
		return nil, false
	}
	return big.NewInt(int64(n)), true
}

// beginsWith is begins_with() on a string or a binary.
func beginsWith(v, prefix types.AttributeValue) bool {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		p, ok := prefix.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(v.Value, p.Value)
	case *types.AttributeValueMemberB:
		p, ok := prefix.(*types.AttributeValueMemberB)
		return ok && bytes.HasPrefix(v.Value, p.Value)
	}
	return false
}

// contains is contains(): a substring of a string, an element of a set of
// the operand's type, or an element of a list.
func contains(v, x types.AttributeValue) bool {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		s, ok := x.(*types.AttributeValueMemberS)
		return ok && strings.Contains(v.Value, s.Value)
	case *types.AttributeValueMemberB:
		b, ok := x.(*types.AttributeValueMemberB)
		return ok && bytes.Contains(v.Value, b.Value)
	case *types.AttributeValueMemberSS:
		e, ok := x.(*types.AttributeValueMemberS)
		return ok && slices.Contains(v.Value, e.Value)
	case *types.AttributeValueMemberNS:
		e, ok := x.(*types.AttributeValueMemberN)
		return ok && slices.ContainsFunc(v.Value, func(y string) bool { return numEq(y, e.Value) })
	case *types.AttributeValueMemberBS:
		e, ok := x.(*types.AttributeValueMemberB)
		return ok && slices.ContainsFunc(v.Value, func(y []byte) bool { return bytes.Equal(y, e.Value) })
	case *types.AttributeValueMemberL:
		return slices.ContainsFunc(v.Value, func(y types.AttributeValue) bool { return EqualValue(y, x) })
	}
	return false
}

// compare applies a comparator. A missing operand (nil) or operands of
// different types are unequal and unordered; ordering is defined on
// numbers, strings (by UTF-8 bytes) and binaries.
func compare(a, b types.AttributeValue, op string) bool {
	if a == nil || b == nil || TypeName(a) != TypeName(b) {
		return op == "<>"
	}
	switch op {
	case "=":
		return EqualValue(a, b)
	case "<>":
		return !EqualValue(a, b)
	}
	c, ok := order(a, b)
	if !ok {
		return false
	}
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0 // ">="
}

// order compares two scalars of one type: numbers by value, strings and
// binaries by bytes; false for the types that have no order.
func order(a, b types.AttributeValue) (int, bool) {
	switch a := a.(type) {
	case *types.AttributeValueMemberN:
		x, okX := new(big.Rat).SetString(a.Value)
		y, okY := new(big.Rat).SetString(b.(*types.AttributeValueMemberN).Value)
		if !okX || !okY {
			return 0, false
		}
		return x.Cmp(y), true
	case *types.AttributeValueMemberS:
		return strings.Compare(a.Value, b.(*types.AttributeValueMemberS).Value), true
	case *types.AttributeValueMemberB:
		return bytes.Compare(a.Value, b.(*types.AttributeValueMemberB).Value), true
	}
	return 0, false
}
