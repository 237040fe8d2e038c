package endpoint

import (
	"context"
	"maps"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/endpoint/partiql"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// operation is one data-plane operation: how its request is read and
// which tables it names, and how it is sent through a table's client.
type operation struct {
	decode func(body []byte) (in any, tables []string, err error)
	call   func(ctx context.Context, db *meter.Client, in any) (smithy.Serializable, error)
	// bind, for a PartiQL statement, is the call it amounts to on a table
	// of schema s and that call's operation (in dataPlane), decided as
	// that call while the client's own request is what is sent
	// (package partiql); false: it cannot say.
	bind func(in any, s designs.Schema) (call any, op string, ok bool)
}

// Data-plane operations, decided by the emulator. Every other operation
// (tables, backups, streams, TTL, tags...) passes through as sent.
var dataPlane = map[string]operation{
	"GetItem":            op((*meter.Client).GetItem, func(in *dynamodb.GetItemInput) []string { return one(in.TableName) }),
	"PutItem":            op((*meter.Client).PutItem, func(in *dynamodb.PutItemInput) []string { return one(in.TableName) }),
	"UpdateItem":         op((*meter.Client).UpdateItem, func(in *dynamodb.UpdateItemInput) []string { return one(in.TableName) }),
	"DeleteItem":         op((*meter.Client).DeleteItem, func(in *dynamodb.DeleteItemInput) []string { return one(in.TableName) }),
	"Query":              op((*meter.Client).Query, func(in *dynamodb.QueryInput) []string { return one(in.TableName) }),
	"Scan":               op((*meter.Client).Scan, func(in *dynamodb.ScanInput) []string { return one(in.TableName) }),
	"BatchGetItem":       op((*meter.Client).BatchGetItem, func(in *dynamodb.BatchGetItemInput) []string { return slices.Sorted(maps.Keys(in.RequestItems)) }),
	"BatchWriteItem":     op((*meter.Client).BatchWriteItem, func(in *dynamodb.BatchWriteItemInput) []string { return slices.Sorted(maps.Keys(in.RequestItems)) }),
	"TransactGetItems":   op((*meter.Client).TransactGetItems, txGetTables),
	"TransactWriteItems": op((*meter.Client).TransactWriteItems, txWriteTables),
	"ExecuteStatement":   executeStatement,
	"ExecuteTransaction": executeTransaction,
	// Decided a statement at a time (joint.go), as are the batches and
	// transactions above when they name more than one table.
	"BatchExecuteStatement": batchExecuteStatement,
}

// executeTransaction is PartiQL's ExecuteTransaction, decided as the
// transaction its statements amount to.
var executeTransaction = operation{
	decode: func(body []byte) (any, []string, error) {
		in := &dynamodb.ExecuteTransactionInput{}
		if err := decodeInput(body, in); err != nil {
			return nil, nil, err
		}
		tx, tables, err := partiql.ReadTransaction(in)
		if err != nil {
			return nil, nil, err
		}
		return tx, tables, nil
	},
	bind: func(in any, s designs.Schema) (any, string, bool) { return in.(*partiql.Transaction).Call(s) },
}

// executeStatement is PartiQL's ExecuteStatement, decided as the call its
// statement amounts to.
var executeStatement = operation{
	decode: func(body []byte) (any, []string, error) {
		in := &dynamodb.ExecuteStatementInput{}
		if err := decodeInput(body, in); err != nil {
			return nil, nil, err
		}
		st, err := partiql.Read(in)
		if err != nil {
			return nil, nil, err
		}
		return st, []string{st.Table}, nil
	},
	bind: func(in any, s designs.Schema) (any, string, bool) { return in.(*partiql.Statement).Call(s) },
}

// partiQL reports whether operation name is one of PartiQL's, which
// read and write items as the other data-plane calls do.
func partiQL(name string) bool {
	return name == "ExecuteStatement" || name == "BatchExecuteStatement" || name == "ExecuteTransaction"
}

// op is the operation of a meter.Client method, I its input and O its
// output.
func op[I any, O any, PO interface {
	*O
	smithy.Serializable
}](call func(*meter.Client, context.Context, *I, ...func(*dynamodb.Options)) (PO, error), tables func(*I) []string) operation {
	return operation{
		decode: func(body []byte) (any, []string, error) {
			in := new(I)
			if err := decodeInput(body, in); err != nil {
				return nil, nil, err
			}
			return in, tables(in), nil
		},
		call: func(ctx context.Context, db *meter.Client, in any) (smithy.Serializable, error) {
			out, err := call(db, ctx, in.(*I))
			if err != nil || out == nil {
				return nil, err
			}
			return out, nil
		},
	}
}

func one(name *string) []string { return []string{aws.ToString(name)} }

func txGetTables(in *dynamodb.TransactGetItemsInput) []string {
	var names []string
	for _, g := range in.TransactItems {
		if g.Get != nil {
			names = append(names, aws.ToString(g.Get.TableName))
		}
	}
	return distinct(names)
}

func txWriteTables(in *dynamodb.TransactWriteItemsInput) []string {
	var names []string
	for _, w := range (ddbitem.Schema{}).TransactWrites(in.TransactItems) {
		names = append(names, w.Table)
	}
	return distinct(names)
}

func distinct(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

// byName names in's tables by name where the client named them by ARN,
// for the emulator and the meter, which know a table by its name; the
// request still reaches DynamoDB Local as the client wrote it.
func byName(in any) {
	name := func(p *string) *string {
		if p == nil {
			return nil
		}
		return aws.String(fault.TableName(*p))
	}
	rename := func(m any) {
		v := reflect.ValueOf(m)
		if v.Kind() != reflect.Map || v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			if n := fault.TableName(k.String()); n != k.String() {
				v.SetMapIndex(reflect.ValueOf(n), v.MapIndex(k))
				v.SetMapIndex(k, reflect.Value{})
			}
		}
	}
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		in.TableName = name(in.TableName)
	case *dynamodb.PutItemInput:
		in.TableName = name(in.TableName)
	case *dynamodb.UpdateItemInput:
		in.TableName = name(in.TableName)
	case *dynamodb.DeleteItemInput:
		in.TableName = name(in.TableName)
	case *dynamodb.QueryInput:
		in.TableName = name(in.TableName)
	case *dynamodb.ScanInput:
		in.TableName = name(in.TableName)
	case *dynamodb.BatchGetItemInput:
		rename(in.RequestItems)
	case *dynamodb.BatchWriteItemInput:
		rename(in.RequestItems)
	case *dynamodb.TransactGetItemsInput:
		for _, g := range in.TransactItems {
			if g.Get != nil {
				g.Get.TableName = name(g.Get.TableName)
			}
		}
	case *dynamodb.TransactWriteItemsInput:
		for _, w := range in.TransactItems {
			switch {
			case w.Put != nil:
				w.Put.TableName = name(w.Put.TableName)
			case w.Update != nil:
				w.Update.TableName = name(w.Update.TableName)
			case w.Delete != nil:
				w.Delete.TableName = name(w.Delete.TableName)
			case w.ConditionCheck != nil:
				w.ConditionCheck.TableName = name(w.ConditionCheck.TableName)
			}
		}
	}
}
