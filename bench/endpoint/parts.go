package endpoint

import (
	"context"
	"net/http"
	"slices"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
	"github.com/ddbharness/ddbharness/bench/endpoint/partiql"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// part is one share of a call decided in parts (joint.go): a table's
// items of a batch or actions of a transaction that names several
// tables, or one statement of a BatchExecuteStatement, sent through its
// table's client as a call of its own.
type part struct {
	t   *table
	op  operation
	in  any // the call it is sent as, its tables named by name
	got *answer
	at  []int // the client's positions (actions, statements) it holds; nil for a batch's tables

	settled chan<- *part
	reply   chan *smithyhttp.Response
	arrived bool   // its emulator let it through to DynamoDB Local
	wire    []byte // what it would have sent Local, once arrived
	handed  int    // the status of the share it was handed
	// aside: a statement that is no single item's, sent to Local as
	// written and metered nowhere; Local answers it in its place.
	aside bool
	// cancelled: let through by its own emulator, refused with the rest of
	// its transaction; it is charged nothing.
	cancelled atomic.Bool

	out smithy.Serializable
	err error
}

// split verdicts: the parts are decided; the call is refused whole as
// DynamoDB refuses it before it reads an item, which Local answers; it
// passes through (a table Local does not know, a body the endpoint
// cannot divide), or passes undecided (a statement that is no single
// item's).
const (
	splitDecided = iota
	splitRefused
	splitPassed
	splitUndecided
)

// split divides call name (in, read from body) into its parts.
func (h *Handler) split(ctx context.Context, r *http.Request, name string, in any, body []byte) ([]*part, int) {
	bo, err := jsontext.ParseObject(body)
	if err != nil {
		return nil, splitPassed
	}
	newPart := func(tname string, asked []byte, at []int) (*part, int) {
		t, err := h.tableOf(ctx, tname)
		if err != nil || t == nil {
			return nil, splitPassed
		}
		p := &part{t: t, op: dataPlane[name], got: &answer{asked: asked, from: r.Header}, at: at}
		if p.in, _, err = p.op.decode(asked); err != nil {
			return nil, splitPassed
		}
		byName(p.in)
		return p, splitDecided
	}
	var ps []*part
	switch in := in.(type) {
	case *dynamodb.BatchWriteItemInput, *dynamodb.BatchGetItemInput:
		items, err := jsontext.ParseObject(bo.Get("RequestItems"))
		if err != nil {
			return nil, splitPassed
		}
		keys := items.Keys()
		for _, tname := range tablesOf(keys, fault.TableName) {
			var others []string
			for _, k := range keys {
				if fault.TableName(k) != tname {
					others = append(others, k)
				}
			}
			sub := bo.Apply(jsontext.Edit{Set: map[string][]byte{"RequestItems": items.Apply(jsontext.Edit{Drop: others})}})
			p, v := newPart(tname, sub, nil)
			if v != splitDecided {
				return nil, v
			}
			ps = append(ps, p)
		}
	case *dynamodb.TransactWriteItemsInput, *dynamodb.TransactGetItemsInput:
		elems, err := jsontext.ParseArray(bo.Get("TransactItems"))
		names := actionTables(in)
		if err != nil || len(elems) != len(names) || slices.Contains(names, "") {
			return nil, splitPassed
		}
		for _, tname := range tablesOf(names, func(s string) string { return s }) {
			var at []int
			var sub [][]byte
			for i, n := range names {
				if n == tname {
					at, sub = append(at, i), append(sub, elems[i])
				}
			}
			p, v := newPart(tname, bo.Apply(jsontext.Edit{Set: map[string][]byte{"TransactItems": jsontext.JoinArray(sub)}}), at)
			if v != splitDecided {
				return nil, v
			}
			ps = append(ps, p)
		}
	case *partiql.Transaction:
		names := make([]string, len(in.Statements))
		for i, st := range in.Statements {
			names[i] = fault.TableName(st.Table)
		}
		for _, tname := range tablesOf(names, func(s string) string { return s }) {
			t, err := h.tableOf(ctx, tname)
			if err != nil || t == nil {
				return nil, splitPassed
			}
			sub := &partiql.Transaction{}
			var at []int
			for i, n := range names {
				if n == tname {
					at, sub.Statements = append(at, i), append(sub.Statements, in.Statements[i])
				}
			}
			call, op, ok := sub.Call(t.schema)
			if !ok {
				return nil, splitUndecided
			}
			ps = append(ps, &part{t: t, op: dataPlane[op], in: call, got: &answer{asked: body, from: r.Header, target: name}, at: at})
		}
	case *partiql.Batch:
		return h.splitStatements(ctx, r, name, in, body)
	default:
		return nil, splitPassed
	}
	return ps, splitDecided
}

// splitStatements divides a BatchExecuteStatement into its statements,
// each decided as the single item's call it amounts to (package partiql). A
// statement that names no single item (a SELECT of a partition or a
// scan, an UPDATE or DELETE without the whole key, an EXISTS) or that the
// endpoint cannot read is set aside: it goes to Local as written, which
// answers it in its place with a ValidationError as DynamoDB does, and
// is charged nothing (inferred); one Local runs instead makes the call
// undecided (joint). A batch DynamoDB refuses whole before it reads an
// item (reads and writes mixed, an item named twice) is refused so, by
// Local.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
// (each SELECT names one item by its whole key; a batch is all reads or all writes)
func (h *Handler) splitStatements(ctx context.Context, r *http.Request, name string, in *partiql.Batch, body []byte) ([]*part, int) {
	var ps []*part
	reads, writes, seen := 0, 0, map[string]bool{}
	for i, st := range in.Statements {
		switch st.Verb {
		case "SELECT":
			reads++
		case "INSERT", "UPDATE", "DELETE":
			writes++
		}
		if st.Verb == "" || st.Verb == "EXISTS" {
			ps = append(ps, &part{aside: true, arrived: true, got: &answer{}, at: []int{i}})
			continue
		}
		t, err := h.tableOf(ctx, fault.TableName(st.Table))
		if err != nil || t == nil {
			return nil, splitPassed
		}
		call, op, ok := st.Call(t.schema)
		var key ddbitem.Item
		switch c := call.(type) {
		case *dynamodb.GetItemInput:
			key = c.Key
		case *dynamodb.PutItemInput:
			key = c.Item
		case *dynamodb.UpdateItemInput:
			key = c.Key
		case *dynamodb.DeleteItemInput:
			key = c.Key
		default:
			ok = false // a Query or Scan: no single item's
		}
		if !ok {
			ps = append(ps, &part{aside: true, arrived: true, got: &answer{}, at: []int{i}})
			continue
		}
		id, _ := t.schema.ItemSchema().KeyID(key)
		id = t.name + "\x00" + id
		if seen[id] {
			return nil, splitRefused
		}
		seen[id] = true
		ps = append(ps, &part{t: t, op: dataPlane[op], in: call, got: &answer{asked: body, from: r.Header, target: name}, at: []int{i}})
	}
	if reads != 0 && writes != 0 {
		return nil, splitRefused
	}
	return ps, splitDecided
}

// batchExecuteStatement is PartiQL's BatchExecuteStatement, decided a
// statement at a time (splitStatements).
var batchExecuteStatement = operation{
	decode: func(body []byte) (any, []string, error) {
		in := &dynamodb.BatchExecuteStatementInput{}
		if err := decodeInput(body, in); err != nil {
			return nil, nil, err
		}
		b, tables, err := partiql.ReadBatch(in)
		if err != nil {
			return nil, nil, err
		}
		return b, tables, nil
	},
}

// actionTables is the table each action of a transaction names, by name
// ("" for an action that names none).
func actionTables(in any) []string {
	var names []string
	switch in := in.(type) {
	case *dynamodb.TransactGetItemsInput:
		for _, g := range in.TransactItems {
			var n *string
			if g.Get != nil {
				n = g.Get.TableName
			}
			names = append(names, fault.TableName(aws.ToString(n)))
		}
	case *dynamodb.TransactWriteItemsInput:
		for _, w := range in.TransactItems {
			names = append(names, fault.TableName(aws.ToString(writeTable(w))))
		}
	}
	return names
}

func writeTable(w types.TransactWriteItem) *string {
	switch {
	case w.Put != nil:
		return w.Put.TableName
	case w.Update != nil:
		return w.Update.TableName
	case w.Delete != nil:
		return w.Delete.TableName
	case w.ConditionCheck != nil:
		return w.ConditionCheck.TableName
	}
	return nil
}

// tablesOf is the tables of names (each as table says), each once, in
// order of first appearance.
func tablesOf(names []string, table func(string) string) []string {
	var out []string
	for _, n := range names {
		if t := table(n); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
