package endpoint

import (
	"errors"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// A PartiQL ExecuteStatement is decided as the call it amounts to on its
// table, as DynamoDB runs it: a SELECT whose WHERE names the whole
// primary key by equality is a GetItem, one that names the partition key
// a Query of that partition, any other a Scan (of the index it names);
// an INSERT is a PutItem of its item, an UPDATE and a DELETE with the
// whole key an UpdateItem and a DeleteItem of that item.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.select.html
// (a SELECT without an equality or IN on the partition key is a full table scan)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.update.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.delete.html
// (UPDATE and DELETE name one item by its whole primary key)
// What reaches DynamoDB Local is the client's statement as sent, and its
// answer goes back as Local gave it; the meter sizes the call from the
// statement and its shadow of the table, as it cannot read the items out
// of a PartiQL answer (a read, an UPDATE: at the item as its shadow knows
// it, or the least a call costs). A statement the endpoint cannot read
// (an OR in WHERE, an UPDATE or DELETE without the whole key, a value it
// cannot parse) passes through undecided, and is counted so.

// statement is an ExecuteStatement's input, read.
type statement struct {
	in    *dynamodb.ExecuteStatementInput
	verb  string // SELECT, INSERT, UPDATE, DELETE
	table string
	index string
	where map[string]types.AttributeValue // WHERE's equalities, ANDed; nil: none usable
	item  map[string]types.AttributeValue // INSERT's value
	whole bool                            // a SELECT *: the items it answers are whole
}

var errStatement = errors.New("a PartiQL statement the endpoint cannot map to its items")

// readStatement reads in's statement; errStatement when it cannot.
func readStatement(in *dynamodb.ExecuteStatementInput) (*statement, error) {
	toks, err := tokens(aws.ToString(in.Statement))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, params: in.Parameters}
	st := &statement{in: in, verb: strings.ToUpper(p.next().text)}
	switch st.verb {
	case "SELECT":
		st.whole = p.punct("*") && p.keyword("FROM")
		for !st.whole && !p.done() && !p.keyword("FROM") {
			p.next()
		}
		if !p.target(st) {
			return nil, errStatement
		}
		if p.keyword("WHERE") {
			st.where = p.conditions()
		}
	case "INSERT":
		if !p.keyword("INTO") || !p.target(st) || !p.keyword("VALUE") {
			return nil, errStatement
		}
		v, ok := p.value()
		m, isMap := v.(*types.AttributeValueMemberM)
		if !ok || !isMap {
			return nil, errStatement
		}
		st.item = m.Value
	case "UPDATE":
		if !p.target(st) {
			return nil, errStatement
		}
		for !p.done() && !p.keyword("WHERE") {
			p.value() // SET and REMOVE clauses: their parameters counted
		}
		st.where = p.conditions()
	case "DELETE":
		if !p.keyword("FROM") || !p.target(st) || !p.keyword("WHERE") {
			return nil, errStatement
		}
		st.where = p.conditions()
	default:
		return nil, errStatement
	}
	if p.failed {
		return nil, errStatement
	}
	return st, nil
}

// call is the call st amounts to on a table of schema s, and its
// operation's name; false when its
// WHERE does not name the item an UPDATE or DELETE needs.
func (st *statement) call(s designs.Schema) (any, string, bool) {
	table := aws.String(tableName(st.table))
	key := func() map[string]types.AttributeValue {
		k := map[string]types.AttributeValue{}
		for _, a := range []string{s.PK, s.SK} {
			if a == "" {
				continue
			}
			v, ok := st.where[a]
			if !ok {
				return nil
			}
			k[a] = v
		}
		return k
	}
	switch st.verb {
	case "INSERT":
		return &dynamodb.PutItemInput{TableName: table, Item: st.item}, "PutItem", true
	case "UPDATE":
		k := key()
		// An expression the meter cannot apply: the item's new image is
		// read back rather than guessed.
		return &dynamodb.UpdateItemInput{TableName: table, Key: k, UpdateExpression: aws.String("PartiQL")}, "UpdateItem", k != nil
	case "DELETE":
		k := key()
		return &dynamodb.DeleteItemInput{TableName: table, Key: k}, "DeleteItem", k != nil
	}
	// The meter learns the table from whole items read (its shadow): an
	// answer of some attributes, or one it cannot read (an ExecuteStatement
	// answers Items where a GetItem answers Item), is marked projected.
	projection := func(whole bool) (*string, map[string]string) {
		if whole {
			return nil, nil
		}
		return aws.String("#k"), map[string]string{"#k": s.PK}
	}
	consistent := st.in.ConsistentRead
	if st.index == "" {
		if k := key(); k != nil {
			pe, names := projection(false)
			return &dynamodb.GetItemInput{TableName: table, Key: k, ConsistentRead: consistent, ProjectionExpression: pe, ExpressionAttributeNames: names}, "GetItem", true
		}
	}
	pe, names := projection(st.whole)
	pk := s.ItemSchema().PartitionKey(st.index)
	var index *string
	if st.index != "" {
		index = aws.String(st.index)
	}
	if v, ok := st.where[pk]; ok && pk != "" {
		if names == nil {
			names = map[string]string{}
		}
		names["#pk"] = pk
		return &dynamodb.QueryInput{TableName: table, IndexName: index, ConsistentRead: consistent, ProjectionExpression: pe,
			KeyConditionExpression: aws.String("#pk = :pk"), ExpressionAttributeNames: names,
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": v}}, "Query", true
	}
	return &dynamodb.ScanInput{TableName: table, IndexName: index, ConsistentRead: consistent, ProjectionExpression: pe, ExpressionAttributeNames: names}, "Scan", true
}

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
				return nil, errStatement
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
		case c == '-' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' || c >= '0' && c <= '9':
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
func (p *parser) target(st *statement) bool {
	t := p.next()
	if t.kind != 'i' && t.kind != 'w' {
		return false
	}
	st.table = t.text
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
// value, ANDed; nil when an OR joins them (none then names an item). It
// stops at RETURNING, and counts every parameter on its way.
func (p *parser) conditions() map[string]types.AttributeValue {
	eq := map[string]types.AttributeValue{}
	or, depth := false, 0
	for !p.done() && !p.keyword("RETURNING") {
		t := p.peek()
		switch {
		case t.kind == 'w' && strings.EqualFold(t.text, "OR"):
			or = true
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
// null, a {map} or a [list]; false for anything else (a token passed
// over, a set), which still takes its parameters.
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
		}
	}
	return nil, false
}

// transaction is an ExecuteTransaction's input, read: a statement per
// action. DynamoDB runs one as the TransactGetItems of its SELECTs or the
// TransactWriteItems of its writes (a transaction is all reads or all
// writes), and it is decided so.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.multiplestatements.transactions.html
type transaction struct{ sts []*statement }

// readTransaction reads in's statements and the tables they name.
func readTransaction(in *dynamodb.ExecuteTransactionInput) (*transaction, []string, error) {
	tx := &transaction{}
	var tables []string
	for _, ps := range in.TransactStatements {
		st, err := readStatement(&dynamodb.ExecuteStatementInput{Statement: ps.Statement, Parameters: ps.Parameters})
		if err != nil {
			return nil, nil, err
		}
		tx.sts = append(tx.sts, st)
		tables = append(tables, st.table)
	}
	if len(tx.sts) == 0 {
		return nil, nil, errStatement
	}
	return tx, tables, nil
}

// call is the transaction tx amounts to on a table of schema s; false
// when an action names no item, or reads and writes mix.
func (tx *transaction) call(s designs.Schema) (any, string, bool) {
	var gets []types.TransactGetItem
	var writes []types.TransactWriteItem
	for _, st := range tx.sts {
		in, _, ok := st.call(s)
		if !ok {
			return nil, "", false
		}
		switch in := in.(type) {
		case *dynamodb.GetItemInput:
			// An ExecuteTransaction answers Responses as TransactGetItems
			// does: its items teach the meter when whole.
			g := &types.Get{TableName: in.TableName, Key: in.Key}
			if !st.whole {
				g.ProjectionExpression, g.ExpressionAttributeNames = in.ProjectionExpression, in.ExpressionAttributeNames
			}
			gets = append(gets, types.TransactGetItem{Get: g})
		case *dynamodb.PutItemInput:
			writes = append(writes, types.TransactWriteItem{Put: &types.Put{TableName: in.TableName, Item: in.Item}})
		case *dynamodb.UpdateItemInput:
			writes = append(writes, types.TransactWriteItem{Update: &types.Update{TableName: in.TableName, Key: in.Key, UpdateExpression: in.UpdateExpression}})
		case *dynamodb.DeleteItemInput:
			writes = append(writes, types.TransactWriteItem{Delete: &types.Delete{TableName: in.TableName, Key: in.Key}})
		default:
			return nil, "", false // a Query or a Scan: no transaction's action
		}
	}
	switch {
	case len(gets) > 0 && len(writes) > 0:
		return nil, "", false
	case len(gets) > 0:
		return &dynamodb.TransactGetItemsInput{TransactItems: gets}, "TransactGetItems", true
	}
	return &dynamodb.TransactWriteItemsInput{TransactItems: writes}, "TransactWriteItems", true
}
