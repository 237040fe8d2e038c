package partiql

import (
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// What statement.go reads of a PartiQL statement: its tokens, and the
// values and conditions it maps to items.

// token is one PartiQL token: a word, a "quoted" identifier, a 'string',
// a number, a parameter ?, or punctuation.
type token struct {
	kind byte // 'w' word, 'i' identifier, 's' string, 'n' number, '?' parameter, 'p' punctuation
	text string
}

func tokens(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == byte(c) {
					if j+1 < len(s) && s[j+1] == byte(c) { // doubled: the quote itself
						b.WriteByte(byte(c))
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, ErrUnmapped
			}
			kind := byte('s')
			if c == '"' {
				kind = 'i'
			}
			out = append(out, token{kind, b.String()})
			i = j + 1
		case c == '?':
			out = append(out, token{'?', "?"})
			i++
		case (c == '+' || c == '.') && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' || c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
				j++
			}
			out = append(out, token{'n', s[i:j]})
			i = j
		case c == '_' || unicode.IsLetter(c):
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= '0' && s[j] <= '9' || unicode.IsLetter(rune(s[j]))) {
				j++
			}
			out = append(out, token{'w', s[i:j]})
			i = j
		case c == '<' && strings.HasPrefix(s[i:], "<<"), c == '>' && strings.HasPrefix(s[i:], ">>"),
			c == '<' && strings.HasPrefix(s[i:], "<="), c == '>' && strings.HasPrefix(s[i:], ">="), c == '<' && strings.HasPrefix(s[i:], "<>"),
			c == '!' && strings.HasPrefix(s[i:], "!="):
			out = append(out, token{'p', s[i : i+2]})
			i += 2
		default:
			out = append(out, token{'p', string(c)})
			i++
		}
	}
	return out, nil
}

// parser reads tokens; params are the statement's parameters, taken by
// each ? in turn.
type parser struct {
	toks   []token
	pos    int
	params []types.AttributeValue
	param  int
	failed bool
}

func (p *parser) done() bool { return p.pos >= len(p.toks) }

func (p *parser) next() token {
	if p.done() {
		p.failed = true
		return token{}
	}
	t := p.toks[p.pos]
	p.pos++
	return t
}

func (p *parser) peek() token {
	if p.done() {
		return token{}
	}
	return p.toks[p.pos]
}

// keyword takes the word w (any case) if it comes next.
func (p *parser) keyword(w string) bool {
	if t := p.peek(); t.kind == 'w' && strings.EqualFold(t.text, w) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == 'p' && t.text == s {
		p.pos++
		return true
	}
	return false
}

// target reads a table, and an index after a dot.
func (p *parser) target(st *Statement) bool {
	t := p.next()
	if t.kind != 'i' && t.kind != 'w' {
		return false
	}
	st.Table = t.text
	if p.punct(".") {
		ix := p.next()
		if ix.kind != 'i' && ix.kind != 'w' {
			return false
		}
		st.index = ix.text
	}
	return true
}

// conditions reads WHERE's top-level equalities of an attribute and a
// value, ANDed; nil when an OR joins them at the top (none then names an
// item; an OR in parentheses is one more condition ANDed). It stops at
// RETURNING, and counts every parameter on its way.
func (p *parser) conditions() map[string]types.AttributeValue {
	eq := map[string]types.AttributeValue{}
	or, depth := false, 0
	for !p.done() && !p.keyword("RETURNING") {
		t := p.peek()
		switch {
		case t.kind == 'w' && strings.EqualFold(t.text, "OR"):
			or = or || depth == 0
			p.pos++
		case t.kind == 'p' && (t.text == "(" || t.text == "["):
			depth++
			p.pos++
		case t.kind == 'p' && (t.text == ")" || t.text == "]"):
			depth--
			p.pos++
		case depth == 0 && (t.kind == 'i' || t.kind == 'w') && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == token{'p', "="}:
			p.pos += 2
			if v, ok := p.value(); ok {
				eq[t.text] = v
			}
		default:
			p.value()
		}
	}
	for !p.done() { // RETURNING's projection
		p.next()
	}
	if or {
		return nil
	}
	return eq
}

// value reads one value: a parameter, a string, a number, a boolean, a
// null, a {map}, a [list], a <<set>> of strings or numbers, or one of
// these in parentheses; false for
// anything else (a token passed over), which still takes its parameters.
func (p *parser) value() (types.AttributeValue, bool) {
	t := p.next()
	switch t.kind {
	case '?':
		if p.param >= len(p.params) {
			p.failed = true
			return nil, false
		}
		p.param++
		return p.params[p.param-1], true
	case 's':
		return &types.AttributeValueMemberS{Value: t.text}, true
	case 'n':
		return &types.AttributeValueMemberN{Value: t.text}, true
	case 'w':
		switch strings.ToUpper(t.text) {
		case "TRUE", "FALSE":
			return &types.AttributeValueMemberBOOL{Value: strings.EqualFold(t.text, "TRUE")}, true
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, true
		}
	case 'p':
		switch t.text {
		case "{":
			m := map[string]types.AttributeValue{}
			for !p.punct("}") {
				k := p.next()
				if (k.kind != 's' && k.kind != 'i') || !p.punct(":") {
					p.failed = true
					return nil, false
				}
				v, ok := p.value()
				if !ok {
					p.failed = true
					return nil, false
				}
				m[k.text] = v
				if !p.punct(",") && p.peek() != (token{'p', "}"}) {
					p.failed = true
					return nil, false
				}
			}
			return &types.AttributeValueMemberM{Value: m}, true
		case "[":
			var l []types.AttributeValue
			for !p.punct("]") {
				v, ok := p.value()
				if !ok {
					p.failed = true
					return nil, false
				}
				l = append(l, v)
				if !p.punct(",") && p.peek() != (token{'p', "]"}) {
					p.failed = true
					return nil, false
				}
			}
			return &types.AttributeValueMemberL{Value: l}, true
		case "<<":
			return p.set()
		case "(":
			return p.parenthesized()
		}
	}
	return nil, false
}

// parenthesized reads a value in parentheses after its "(", which DynamoDB
// Local takes as the value itself ('n': (5)). Anything else there (a
// function's arguments) is passed over as before: the parser stands
// after the "(", its parameters and failure as they were.
func (p *parser) parenthesized() (types.AttributeValue, bool) {
	pos, param, failed := p.pos, p.param, p.failed
	if v, ok := p.value(); ok && p.punct(")") {
		return v, true
	}
	p.pos, p.param, p.failed = pos, param, failed
	return nil, false
}

// set reads a <<set>>'s elements after its <<: strings or numbers (a
// parameter's own type), all of one type, as DynamoDB's SS, NS or BS.
func (p *parser) set() (types.AttributeValue, bool) {
	var ss, ns []string
	var bs [][]byte
	for !p.punct(">>") {
		v, ok := p.value()
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			ss = append(ss, v.Value)
		case *types.AttributeValueMemberN:
			ns = append(ns, v.Value)
		case *types.AttributeValueMemberB:
			bs = append(bs, v.Value)
		default:
			ok = false
		}
		if !ok || !p.punct(",") && p.peek() != (token{'p', ">>"}) {
			p.failed = true
			return nil, false
		}
	}
	switch {
	case len(ss) > 0 && len(ns) == 0 && len(bs) == 0:
		return &types.AttributeValueMemberSS{Value: ss}, true
	case len(ns) > 0 && len(ss) == 0 && len(bs) == 0:
		return &types.AttributeValueMemberNS{Value: ns}, true
	case len(bs) > 0 && len(ss) == 0 && len(ns) == 0:
		return &types.AttributeValueMemberBS{Value: bs}, true
	}
	p.failed = true
	return nil, false
}
