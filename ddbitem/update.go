package ddbitem

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// updateAction is one action of an update expression, its operand already
// evaluated against the item as it was before the update.
type updateAction struct {
	verb  string // SET, REMOVE, ADD or DELETE
	path  docPath
	value types.AttributeValue // nil for REMOVE
}

// ApplyUpdate returns the item an UpdateItem (or a transaction's Update)
// leaves at key when it applies expr, with its placeholders' names and
// values, to old (nil: no item yet, which the update creates from the key). Every operand reads old, as DynamoDB
// evaluates an update against the item before it; old itself is never
// modified, since earlier observations may still hold it.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.Modifying.html
func ApplyUpdate(old, key Item, expr string, names map[string]string,
	values map[string]types.AttributeValue) (Item, error) {
	base := old
	if len(base) == 0 {
		base = key
	}
	actions, err := parseUpdate(base, expr, names, values)
	if err != nil {
		return nil, err
	}
	item := maps.Clone(base)
	for _, a := range actions {
		if err := a.apply(item); err != nil {
			return nil, fmt.Errorf("update %q: %w", expr, err)
		}
	}
	return item, nil
}

// parseUpdate reads the clauses of expr, in any order, each at most once.
func parseUpdate(item Item, expr string, names map[string]string,
	values map[string]types.AttributeValue) ([]updateAction, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return nil, err
	}
	r := &exprReader{expr: expr, toks: toks, names: names, values: values}
	var actions []updateAction
	for {
		t, ok := r.next()
		if !ok {
			return actions, nil
		}
		verb := strings.ToUpper(t.text)
		if t.kind != tokName || !slices.Contains([]string{"SET", "REMOVE", "ADD", "DELETE"}, verb) {
			return nil, r.errorf("want SET, REMOVE, ADD or DELETE, got %q", t.text)
		}
		for {
			a, err := r.action(item, verb)
			if err != nil {
				return nil, err
			}
			actions = append(actions, a)
			if !r.accept(",") {
				break
			}
		}
	}
}

// action reads one action of a clause.
func (r *exprReader) action(item Item, verb string) (updateAction, error) {
	t, _ := r.next()
	p, err := r.path(t)
	if err != nil {
		return updateAction{}, err
	}
	a := updateAction{verb: verb, path: p}
	switch verb {
	case "SET":
		if err := r.expect("="); err != nil {
			return a, err
		}
		a.value, err = r.setValue(item)
	case "ADD", "DELETE":
		t, _ := r.next()
		a.value, err = r.value(t)
	}
	return a, err
}

// setValue reads the right side of SET: an operand, or two joined by + or -.
func (r *exprReader) setValue(item Item) (types.AttributeValue, error) {
	left, err := r.operand(item, inSet)
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"+", "-"} {
		if r.accept(op) {
			right, err := r.operand(item, inSet)
			if err != nil {
				return nil, err
			}
			return arithmetic(left, right, op == "-")
		}
	}
	return left, nil
}

// nextOperand reads a function's next argument: a comma, then an operand.
func (r *exprReader) nextOperand(item Item) (types.AttributeValue, error) {
	if err := r.expect(","); err != nil {
		return nil, err
	}
	return r.operand(item, inSet)
}

// function evaluates if_not_exists or list_append; the opening parenthesis
// is read already. Function names are case-sensitive.
func (r *exprReader) function(item Item, name string) (types.AttributeValue, error) {
	var v types.AttributeValue
	switch name {
	case "if_not_exists":
		t, _ := r.next()
		p, err := r.path(t)
		if err != nil {
			return nil, err
		}
		alt, err := r.nextOperand(item)
		if err != nil {
			return nil, err
		}
		v = alt
		if cur, found := p.get(item); found {
			v = cur
		}
	case "list_append":
		a, err := r.operand(item, inSet)
		if err != nil {
			return nil, err
		}
		b, err := r.nextOperand(item)
		if err != nil {
			return nil, err
		}
		la, okA := a.(*types.AttributeValueMemberL)
		lb, okB := b.(*types.AttributeValueMemberL)
		if !okA || !okB {
			return nil, r.errorf("list_append needs two lists")
		}
		v = &types.AttributeValueMemberL{Value: slices.Concat(la.Value, lb.Value)}
	default:
		return nil, r.errorf("unknown function %q", name)
	}
	return v, r.expect(")")
}

// apply performs the action on item, copying every nested map or list it
// changes.
func (a updateAction) apply(item Item) error {
	switch a.verb {
	case "SET":
		return a.path.set(item, a.value)
	case "REMOVE":
		return a.path.remove(item)
	}
	cur, found := a.path.get(item)
	var next types.AttributeValue
	var err error
	switch {
	case a.verb == "ADD" && !found:
		next = a.value
	case a.verb == "ADD":
		next, err = addTo(cur, a.value)
	case !found: // DELETE from a set that is not there: nothing to do
		return nil
	default:
		next, err = deleteFrom(cur, a.value)
	}
	if err != nil {
		return fmt.Errorf("%s %v: %w", a.verb, a.path, err)
	}
	if next == nil {
		return a.path.remove(item)
	}
	return a.path.set(item, next)
}
