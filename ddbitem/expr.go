package ddbitem

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Expressions are read the way DynamoDB reads them, for code that must
// know what a write did without asking DynamoDB again. Tokens and document
// paths are shared by update, condition and key condition expressions.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.Modifying.html

type tokenKind byte

const (
	tokName  tokenKind = iota // an attribute name or a #placeholder; also keywords and functions
	tokValue                  // a :placeholder
	tokIndex                  // digits inside [ ]
	tokPunct                  // one of = + - , ( ) [ ] . < >
)

type token struct {
	kind tokenKind
	text string
}

// tokenize splits an expression into tokens; whitespace only separates.
func tokenize(expr string) ([]token, error) {
	var toks []token
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.IndexByte("=+-,()[].<>", c) >= 0:
			toks = append(toks, token{tokPunct, expr[i : i+1]})
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(expr) && expr[j] >= '0' && expr[j] <= '9' {
				j++
			}
			toks = append(toks, token{tokIndex, expr[i:j]})
			i = j
		case c == '#' || c == ':' || isNameByte(c):
			j := i + 1
			for j < len(expr) && isNameByte(expr[j]) {
				j++
			}
			kind := tokName
			if c == ':' {
				kind = tokValue
			}
			toks = append(toks, token{kind, expr[i:j]})
			i = j
		default:
			return nil, fmt.Errorf("expression %q: unexpected %q at %d", expr, c, i)
		}
	}
	return toks, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// pathElem is one step of a document path: a map key or a list index.
type pathElem struct {
	name    string
	index   int
	isIndex bool
}

type docPath []pathElem

// exprReader walks the tokens of one expression, resolving placeholders.
type exprReader struct {
	expr   string
	toks   []token
	pos    int
	names  map[string]string
	values map[string]types.AttributeValue
}

func (r *exprReader) peek() (token, bool) {
	if r.pos >= len(r.toks) {
		return token{}, false
	}
	return r.toks[r.pos], true
}

func (r *exprReader) next() (token, bool) {
	t, ok := r.peek()
	if ok {
		r.pos++
	}
	return t, ok
}

// accept consumes the punctuation p if it comes next.
func (r *exprReader) accept(p string) bool {
	if t, ok := r.peek(); ok && t.kind == tokPunct && t.text == p {
		r.pos++
		return true
	}
	return false
}

func (r *exprReader) expect(p string) error {
	if !r.accept(p) {
		return r.errorf("want %q", p)
	}
	return nil
}

func (r *exprReader) errorf(format string, args ...any) error {
	return fmt.Errorf("expression %q at token %d: %s", r.expr, r.pos, fmt.Sprintf(format, args...))
}

// name resolves an attribute name token: a #placeholder or a plain name.
func (r *exprReader) name(t token) (string, error) {
	if t.kind != tokName {
		return "", r.errorf("want an attribute name, got %q", t.text)
	}
	if !strings.HasPrefix(t.text, "#") {
		return t.text, nil
	}
	n, ok := r.names[t.text]
	if !ok {
		return "", r.errorf("placeholder %s has no name", t.text)
	}
	return n, nil
}

// value resolves a :placeholder.
func (r *exprReader) value(t token) (types.AttributeValue, error) {
	v, ok := r.values[t.text]
	if !ok {
		return nil, r.errorf("placeholder %s has no value", t.text)
	}
	return v, nil
}

// path reads a document path whose first token is first.
func (r *exprReader) path(first token) (docPath, error) {
	n, err := r.name(first)
	if err != nil {
		return nil, err
	}
	p := docPath{{name: n}}
	for {
		switch {
		case r.accept("."):
			t, _ := r.next()
			n, err := r.name(t)
			if err != nil {
				return nil, err
			}
			p = append(p, pathElem{name: n})
		case r.accept("["):
			t, _ := r.next()
			if t.kind != tokIndex {
				return nil, r.errorf("want a list index, got %q", t.text)
			}
			i, err := strconv.Atoi(t.text)
			if err != nil {
				return nil, r.errorf("list index %q: %v", t.text, err)
			}
			if err := r.expect("]"); err != nil {
				return nil, err
			}
			p = append(p, pathElem{index: i, isIndex: true})
		default:
			return p, nil
		}
	}
}

// operandIn is the expression an operand is read in: it decides the
// functions the operand may call and what a path the item lacks gives.
type operandIn bool

const (
	inCondition operandIn = false // size(); a missing path is no operand (nil)
	inSet       operandIn = true  // if_not_exists, list_append; a missing path is an error
)

// operand reads a value placeholder, a function call or a document path
// (its value in item).
func (r *exprReader) operand(item Item, in operandIn) (types.AttributeValue, error) {
	t, ok := r.next()
	switch {
	case !ok:
		return nil, r.errorf("want an operand")
	case t.kind == tokValue:
		return r.value(t)
	case t.kind == tokName && r.accept("("):
		if in == inSet {
			return r.function(item, t.text)
		}
		return r.size(item, t.text)
	}
	p, err := r.path(t)
	if err != nil {
		return nil, err
	}
	v, found := p.get(item)
	if !found && in == inSet {
		return nil, r.errorf("path %v is not in the item", p)
	}
	return v, nil
}
