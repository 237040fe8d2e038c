package ddbitem

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// A key condition is checked as DynamoDB checks it before reading
// anything, and refused with its ValidationException. On a multi-attribute
// key every partition key attribute takes an equality, and the sort key
// attributes are named left to right: each one before the last named takes
// an equality, and only the last may take a range (<, <=, >, >=, BETWEEN,
// begins_with).
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html;
// the messages, and which of several faults DynamoDB names first, are
// DynamoDB Local 3.3.1's (bench/meter/multikey_test.go holds both to it).

// keyTerm is one condition of a key condition expression, with its
// attribute on the left: attr op values.
type keyTerm struct {
	attr   string
	op     string // = < <= > >= BETWEEN begins_with
	values []types.AttributeValue
}

// ValidationError is DynamoDB's ValidationException with message msg, as
// the SDK returns it for a request DynamoDB refused as invalid.
func ValidationError(msg string) error {
	return &smithy.GenericAPIError{Code: "ValidationException", Message: msg, Fault: smithy.FaultClient}
}

// Messages of the key rules, as DynamoDB words them.
const (
	msgOneConditionPerKey = "KeyConditionExpressions must only contain one condition per key"
	msgMissedKey          = "Query condition missed key schema element"
	msgNotSupported       = "Query key condition not supported"
	msgLength             = "Conditions can be of length 1 or 2 only"
	msgTypeMismatch       = "One or more parameter values were invalid: Condition parameter type does not match schema type"
)

// CheckKeyCondition refuses, with DynamoDB's ValidationException, a key
// condition c that a Query of index name (empty: the table) breaks the
// key rules with: an operator a key condition cannot use, two conditions
// on one attribute, an attribute outside the key, a partition key
// attribute without an equality, a sort key attribute skipped or given a
// range before the last one named, a value of another type than the
// attribute's (when s knows the types).
func (s Schema) CheckKeyCondition(name string, c Condition) error {
	terms, err := c.keyTerms()
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t.attr] {
			return ValidationError(msgOneConditionPerKey)
		}
		seen[t.attr] = true
	}
	pks, sks := s.keyOf(name)
	if len(pks) > 1 || len(sks) > 1 {
		err = checkMulti(terms, pks, sks)
	} else {
		err = checkSingle(terms, pks, sks)
	}
	if err != nil {
		return err
	}
	return s.checkTypes(terms)
}

// checkSingle holds a key of one attribute each (a table's, an LSI's, a
// GSI's of the classic shape) to its rules.
func checkSingle(terms []keyTerm, pks, sks []string) error {
	if len(terms) > 2 {
		return ValidationError(msgLength)
	}
	var part *keyTerm
	for i, t := range terms {
		switch {
		case len(pks) > 0 && t.attr == pks[0]:
			part = &terms[i]
		case len(sks) > 0 && t.attr == sks[0]:
		default:
			return ValidationError(msgMissedKey)
		}
	}
	if part == nil {
		return ValidationError(msgMissedKey)
	}
	if part.op != "=" {
		return ValidationError(msgNotSupported)
	}
	return nil
}

// checkMulti holds a multi-attribute key to its rules: the partition key
// attributes first, then the sort key's left to right, then any other
// attribute named.
func checkMulti(terms []keyTerm, pks, sks []string) error {
	op := make(map[string]string, len(terms))
	for _, t := range terms {
		op[t.attr] = t.op
	}
	var unequal []string
	for _, a := range pks {
		if op[a] != "=" {
			unequal = append(unequal, a)
		}
	}
	if len(unequal) > 0 {
		return ValidationError(fmt.Sprintf("HASH key attributes %s must have equality conditions specified in the query", strings.Join(unequal, ", ")))
	}
	last := -1
	for i, a := range sks {
		if op[a] != "" {
			last = i
		}
	}
	for _, a := range sks[:max(last, 0)] {
		if op[a] != "=" {
			unequal = append(unequal, a)
		}
	}
	if len(unequal) > 0 {
		return ValidationError(fmt.Sprintf("RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s", strings.Join(unequal, ", "), sks[last]))
	}
	for _, t := range terms {
		if !slices.Contains(pks, t.attr) && !slices.Contains(sks, t.attr) {
			return ValidationError(msgMissedKey)
		}
	}
	return nil
}

// checkTypes refuses a value whose type is not its attribute's.
func (s Schema) checkTypes(terms []keyTerm) error {
	if s.Types == nil {
		return nil
	}
	for _, t := range terms {
		want := s.Types[t.attr]
		if want == "" {
			want = types.ScalarAttributeTypeS
		}
		for _, v := range t.values {
			if TypeName(v) != string(want) {
				return ValidationError(msgTypeMismatch)
			}
		}
	}
	return nil
}

// QueryPartition is the partition a Query of index name (empty: the table)
// with key condition c reads: its partition key attributes with the
// values c gives them. ok is false when c does not give each one by
// equality.
func (s Schema) QueryPartition(name string, c Condition) (part Item, ok bool) {
	terms, err := c.keyTerms()
	if err != nil {
		return nil, false
	}
	pks := s.PartitionAttrs(name)
	part = make(Item, len(pks))
	for _, a := range pks {
		j := slices.IndexFunc(terms, func(t keyTerm) bool { return t.attr == a && t.op == "=" })
		if j < 0 {
			return nil, false
		}
		part[a] = terms[j].values[0]
	}
	return part, len(pks) > 0
}

// keyTerms reads c as a key condition: conditions joined by AND, in
// parentheses or not. An operator a key condition cannot use is refused
// by name, as DynamoDB refuses it.
func (c Condition) keyTerms() ([]keyTerm, error) {
	toks, err := tokenize(c.Expr)
	if err != nil {
		return nil, invalidKey(err.Error())
	}
	r := &exprReader{expr: c.Expr, toks: toks, names: c.Names, values: c.Values}
	var terms []keyTerm
	if err := r.keyAnd(&terms); err != nil {
		return nil, err
	}
	if t, more := r.peek(); more {
		if t.kind == tokName && strings.EqualFold(t.text, "OR") {
			return nil, invalidOperator("OR")
		}
		return nil, invalidKey(fmt.Sprintf("unexpected %q", t.text))
	}
	return terms, nil
}

func invalidOperator(op string) error {
	return ValidationError("Invalid operator used in KeyConditionExpression: " + op)
}

func invalidKey(why string) error {
	return ValidationError("Invalid KeyConditionExpression: " + why)
}

func (r *exprReader) keyAnd(terms *[]keyTerm) error {
	for {
		if err := r.keyTerm(terms); err != nil {
			return err
		}
		if !r.keyword("AND") {
			return nil
		}
	}
}

func (r *exprReader) keyTerm(terms *[]keyTerm) error {
	if r.keyword("NOT") {
		return invalidOperator("NOT")
	}
	if r.accept("(") {
		if err := r.keyAnd(terms); err != nil {
			return err
		}
		if t, ok := r.peek(); ok && t.kind == tokName && strings.EqualFold(t.text, "OR") {
			return invalidOperator("OR")
		}
		if !r.accept(")") {
			return invalidKey("want )")
		}
		return nil
	}
	t, ok := r.next()
	if !ok {
		return invalidKey("the expression ends where a condition should be")
	}
	if t.kind == tokName && r.accept("(") {
		if t.text != "begins_with" {
			return invalidOperator(t.text)
		}
		return r.beginsWith(terms)
	}
	switch {
	case r.keyword("BETWEEN"):
		attr, err := r.keyName(t)
		if err != nil {
			return err
		}
		lo, err := r.keyValue()
		if err != nil {
			return err
		}
		if !r.keyword("AND") {
			return invalidKey("BETWEEN wants AND")
		}
		hi, err := r.keyValue()
		if err != nil {
			return err
		}
		*terms = append(*terms, keyTerm{attr, "BETWEEN", []types.AttributeValue{lo, hi}})
		return nil
	case r.keyword("IN"):
		return invalidOperator("IN")
	}
	op, err := r.comparator()
	if err != nil {
		return invalidKey(err.Error())
	}
	if op == "<>" {
		return invalidOperator(op)
	}
	u, ok := r.next()
	if !ok {
		return invalidKey("the expression ends where an operand should be")
	}
	if t.kind == tokValue { // :v < attr is attr > :v
		t, u, op = u, t, flipped[op]
	}
	attr, err := r.keyName(t)
	if err != nil {
		return err
	}
	v, err := r.value(u)
	if err != nil {
		return invalidKey(err.Error())
	}
	*terms = append(*terms, keyTerm{attr, op, []types.AttributeValue{v}})
	return nil
}

// flipped is each comparator with its operands swapped.
var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// beginsWith reads begins_with's arguments, its opening parenthesis read.
// Its prefix is a string or a binary.
func (r *exprReader) beginsWith(terms *[]keyTerm) error {
	t, _ := r.next()
	attr, err := r.keyName(t)
	if err != nil {
		return err
	}
	if !r.accept(",") {
		return invalidKey("begins_with wants two arguments")
	}
	v, err := r.keyValue()
	if err != nil {
		return err
	}
	if typ := TypeName(v); typ != "S" && typ != "B" {
		return invalidKey("Incorrect operand type for operator or function; operator or function: begins_with, operand type: " + typ)
	}
	if !r.accept(")") {
		return invalidKey("want )")
	}
	*terms = append(*terms, keyTerm{attr, "begins_with", []types.AttributeValue{v}})
	return nil
}

// keyName resolves the attribute a condition is on: a top-level name or
// its #placeholder.
func (r *exprReader) keyName(t token) (string, error) {
	if t.kind != tokName {
		return "", invalidKey(fmt.Sprintf("want an attribute name, got %q", t.text))
	}
	n, err := r.name(t)
	if err != nil {
		return "", invalidKey(err.Error())
	}
	return n, nil
}

// keyValue reads a :placeholder and resolves it.
func (r *exprReader) keyValue() (types.AttributeValue, error) {
	t, ok := r.next()
	if !ok || t.kind != tokValue {
		return nil, invalidKey("want a :value")
	}
	v, err := r.value(t)
	if err != nil {
		return nil, invalidKey(err.Error())
	}
	return v, nil
}
