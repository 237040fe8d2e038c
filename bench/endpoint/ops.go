package endpoint

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// operation is one data-plane operation: how its request is read and
// which tables it names, and how it is sent through a table's client.
type operation struct {
	decode func(body []byte) (in any, tables []string, err error)
	call   func(ctx context.Context, db *meter.Client, in any) (smithy.Serializable, error)
}

// Data-plane operations, decided by the emulator. Every other operation
// (tables, backups, streams, PartiQL, TTL, tags...) passes through as sent.
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
