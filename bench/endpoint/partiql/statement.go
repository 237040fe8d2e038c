package partiql

import (
	"errors"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/designs"
)

// Statement is an ExecuteStatement's input, read.
type Statement struct {
	in    *dynamodb.ExecuteStatementInput
	Verb  string // SELECT, INSERT, UPDATE, DELETE, EXISTS; "" for a statement set aside unread
	Table string
	index string
	where map[string]types.AttributeValue // WHERE's equalities, ANDed; nil: none usable
	item  map[string]types.AttributeValue // INSERT's value
	whole bool                            // a SELECT *: the items it answers are whole
}

var ErrUnmapped = errors.New("a PartiQL statement the endpoint cannot map to its items")

// Read reads in's statement; ErrUnmapped when it cannot.
func Read(in *dynamodb.ExecuteStatementInput) (*Statement, error) {
	toks, err := tokens(aws.ToString(in.Statement))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, params: in.Parameters}
	st := &Statement{in: in, Verb: strings.ToUpper(p.next().text)}
	switch st.Verb {
	case "SELECT":
		st.whole = p.punct("*") && p.keyword("FROM")
		for !st.whole && !p.done() && !p.keyword("FROM") {
			p.next()
		}
		if !p.target(st) {
			return nil, ErrUnmapped
		}
		if p.keyword("WHERE") {
			st.where = p.conditions()
		}
	case "INSERT":
		if !p.keyword("INTO") || !p.target(st) || !p.keyword("VALUE") {
			return nil, ErrUnmapped
		}
		v, ok := p.value()
		m, isMap := v.(*types.AttributeValueMemberM)
		if !ok || !isMap {
			return nil, ErrUnmapped
		}
		st.item = m.Value
	case "UPDATE":
		if !p.target(st) {
			return nil, ErrUnmapped
		}
		for !p.done() && !p.keyword("WHERE") {
			p.value() // SET and REMOVE clauses: their parameters counted
		}
		st.where = p.conditions()
	case "DELETE":
		if !p.keyword("FROM") || !p.target(st) || !p.keyword("WHERE") {
			return nil, ErrUnmapped
		}
		st.where = p.conditions()
	case "EXISTS":
		if !p.punct("(") || !p.keyword("SELECT") {
			return nil, ErrUnmapped
		}
		for !p.done() && !p.keyword("FROM") {
			p.next()
		}
		if !p.target(st) || !p.keyword("WHERE") {
			return nil, ErrUnmapped
		}
		st.where = p.conditions() // its closing parenthesis read with them
	default:
		return nil, ErrUnmapped
	}
	if p.failed {
		return nil, ErrUnmapped
	}
	return st, nil
}

// key is the primary key of a table of schema s that st's WHERE gives
// by equality; nil when it lacks an attribute of it.
func (st *Statement) key(s designs.Schema) map[string]types.AttributeValue {
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

// Call is the call st amounts to on a table of schema s, and its
// operation's name; false when its WHERE does not name the item an
// UPDATE or DELETE needs, or it is an EXISTS, which DynamoDB takes in a
// transaction only: DynamoDB refuses these before reading an item.
func (st *Statement) Call(s designs.Schema) (any, string, bool) {
	table := aws.String(fault.TableName(st.Table))
	key := func() map[string]types.AttributeValue { return st.key(s) }
	switch st.Verb {
	case "EXISTS", "":
		return nil, "", false
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
	var index *string
	if st.index != "" {
		index = aws.String(st.index)
	}
	// A Query when the statement gives every attribute of the partition
	// key (each of a multi-attribute key's) by equality.
	if cond, values, ok := partitionOf(s.ItemSchema().PartitionAttrs(st.index), st.where); ok {
		if names == nil {
			names = map[string]string{}
		}
		for i, pk := range s.ItemSchema().PartitionAttrs(st.index) {
			names["#pk"+suffix(i)] = pk
		}
		return &dynamodb.QueryInput{TableName: table, IndexName: index, ConsistentRead: consistent, ProjectionExpression: pe,
			KeyConditionExpression: aws.String(cond), ExpressionAttributeNames: names,
			ExpressionAttributeValues: values}, "Query", true
	}
	return &dynamodb.ScanInput{TableName: table, IndexName: index, ConsistentRead: consistent, ProjectionExpression: pe, ExpressionAttributeNames: names}, "Scan", true
}

// Transaction is an ExecuteTransaction's input, read: a statement per
// action. DynamoDB runs one as the TransactGetItems of its SELECTs or the
// TransactWriteItems of its writes and EXISTS checks (a transaction is all
// reads or all writes), and it is decided so; a SELECT, UPDATE or DELETE
// without the whole key, which DynamoDB refuses, is not.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.multiplestatements.transactions.html
type Transaction struct{ Statements []*Statement }

// ReadTransaction reads in's statements and the tables they name.
func ReadTransaction(in *dynamodb.ExecuteTransactionInput) (*Transaction, []string, error) {
	tx := &Transaction{}
	var tables []string
	for _, ps := range in.TransactStatements {
		st, err := Read(&dynamodb.ExecuteStatementInput{Statement: ps.Statement, Parameters: ps.Parameters})
		if err != nil {
			return nil, nil, err
		}
		tx.Statements = append(tx.Statements, st)
		tables = append(tables, st.Table)
	}
	if len(tx.Statements) == 0 {
		return nil, nil, ErrUnmapped
	}
	return tx, tables, nil
}

// Batch is a BatchExecuteStatement's input, read: its statements in
// order, each decided on its own; one that cannot be read is a Statement
// with no Verb (set aside unread).
type Batch struct{ Statements []*Statement }

// ReadBatch reads in's statements and the tables they name ("" for one
// that cannot be read); ErrUnmapped when it holds none.
func ReadBatch(in *dynamodb.BatchExecuteStatementInput) (*Batch, []string, error) {
	b := &Batch{}
	var tables []string
	for _, bs := range in.Statements {
		st, err := Read(&dynamodb.ExecuteStatementInput{Statement: bs.Statement, Parameters: bs.Parameters, ConsistentRead: bs.ConsistentRead})
		if err != nil {
			st = &Statement{}
		}
		b.Statements = append(b.Statements, st)
		tables = append(tables, st.Table)
	}
	if len(b.Statements) == 0 {
		return nil, nil, ErrUnmapped
	}
	return b, tables, nil
}

// Call is the transaction tx amounts to on a table of schema s; false
// when an action names no item, or reads and writes mix.
func (tx *Transaction) Call(s designs.Schema) (any, string, bool) {
	var gets []types.TransactGetItem
	var writes []types.TransactWriteItem
	for _, st := range tx.Statements {
		if st.Verb == "EXISTS" {
			// A ConditionCheck of the item it names: its condition is
			// Local's to judge, as the statement is what Local gets.
			k := st.key(s)
			if k == nil {
				return nil, "", false
			}
			writes = append(writes, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
				TableName: aws.String(fault.TableName(st.Table)), Key: k, ConditionExpression: aws.String("PartiQL")}})
			continue
		}
		in, _, ok := st.Call(s)
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

// partitionOf is the key condition naming the partition whose attributes
// pks where gives values to ("#pk = :pk AND #pk1 = :pk1 …"), and its
// values; ok is false when where lacks one.
func partitionOf(pks []string, where map[string]types.AttributeValue) (cond string, values map[string]types.AttributeValue, ok bool) {
	if len(pks) == 0 {
		return "", nil, false
	}
	values = make(map[string]types.AttributeValue, len(pks))
	for i, pk := range pks {
		v, found := where[pk]
		if !found {
			return "", nil, false
		}
		n := suffix(i)
		if i > 0 {
			cond += " AND "
		}
		cond += "#pk" + n + " = :pk" + n
		values[":pk"+n] = v
	}
	return cond, values, true
}

// suffix tells apart the placeholders of a partition key's attributes:
// none for the first, as a key of one attribute has always been written.
func suffix(i int) string {
	if i == 0 {
		return ""
	}
	return strconv.Itoa(i)
}
