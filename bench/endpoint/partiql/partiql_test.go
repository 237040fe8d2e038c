package partiql

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestStatementCalls: each PartiQL statement is decided as the call it
// amounts to on its table, parameters taken in order; what names no item
// an UPDATE or DELETE needs, or cannot be read, is not.
func TestStatementCalls(t *testing.T) {
	s := ddbtest.WireSchema
	for _, c := range []struct {
		stmt   string
		params []types.AttributeValue
		want   string // the call, its table and key or item as %v prints them; "" when undecided
	}{
		{`SELECT * FROM "t" WHERE PK = ? AND SK = ?`, []types.AttributeValue{str("a"), str("1")}, "GetItem t map[PK:a SK:1]"},
		{`select * from t where "SK" = '1' and PK = 'a'`, nil, "GetItem t map[PK:a SK:1]"},
		{`SELECT * FROM "t" WHERE PK = 'a' AND n > ?`, []types.AttributeValue{str("x")}, "Query t a"},
		{`SELECT * FROM "t"."ByG" WHERE G = 'g'`, nil, "Query t g"},
		{`SELECT * FROM "t" WHERE PK = 'a' OR PK = 'b'`, nil, "Scan t"},
		{`SELECT * FROM "t" WHERE PK IN ['a', 'b']`, nil, "Scan t"},
		{`INSERT INTO "t" VALUE {'PK': ?, 'SK': 'it''s', 'l': [1, {'x': null}]}`, []types.AttributeValue{str("a")}, "PutItem t map[PK:a SK:it's l:[1 map[x:<nil>]]]"},
		{`UPDATE "t" SET n = ? SET m = list_append(m, [?]) WHERE PK = ? AND SK = '1' RETURNING ALL NEW *`, []types.AttributeValue{str("x"), str("y"), str("a")}, "UpdateItem t map[PK:a SK:1]"},
		{`DELETE FROM "t" WHERE PK = 'a' AND SK = '1'`, nil, "DeleteItem t map[PK:a SK:1]"},
		{`DELETE FROM "t" WHERE PK = 'a'`, nil, ""},
		{`UPDATE "t" SET n = 1 WHERE PK = 'a' AND SK = '1' AND (n = 1 OR n = 2)`, nil, "UpdateItem t map[PK:a SK:1]"},
		{`UPDATE "t" SET n = 1 WHERE PK = 'a' AND SK = '1' OR PK = 'b'`, nil, ""},
		{`INSERT INTO "t" VALUE {'PK': 'a', 'SK': '1', 's': <<'x', ?>>, 'ns': <<1, +2>>}`, []types.AttributeValue{str("y")}, "PutItem t map[PK:a SK:1 ns:[1 +2] s:[x y]]"},
		{`INSERT INTO "t" VALUE {'PK': 'a', 'SK': '1', 's': <<'x', 1>>}`, nil, ""},
		// Values in parentheses, which DynamoDB Local takes as the values.
		{`INSERT INTO "t" VALUE {'PK': ('a'), 'SK': '1', 'n': (5), 'l': [(?), ((2))]}`, []types.AttributeValue{str("x")}, "PutItem t map[PK:a SK:1 l:[x 2] n:5]"},
		{`SELECT * FROM "t" WHERE PK = ('a') AND SK = (?)`, []types.AttributeValue{str("1")}, "GetItem t map[PK:a SK:1]"},
		{`UPDATE "t" SET n = (?) SET m = list_append(m, [?]) WHERE PK = ? AND SK = '1'`, []types.AttributeValue{str("x"), str("y"), str("a")}, "UpdateItem t map[PK:a SK:1]"},
		{`EXISTS(SELECT * FROM "t" WHERE PK = 'a' AND SK = '1' AND n = 1)`, nil, ""},           // in a transaction only
		{`UPDATE "t" SET n = 1 WHERE PK = ? AND SK = ?`, []types.AttributeValue{str("a")}, ""}, // a parameter missing
		{`SELEKT * FROM "t"`, nil, ""},
		{`INSERT INTO "t" VALUE {'PK': 'a'`, nil, ""},
		{`SELECT * FROM "t" WHERE PK = 'a`, nil, ""},
	} {
		got := ""
		if st, err := Read(&dynamodb.ExecuteStatementInput{Statement: aws.String(c.stmt), Parameters: c.params}); err == nil {
			if in, op, ok := st.Call(s); ok {
				got = describe(op, in)
			}
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.stmt, got, c.want)
		}
	}
}

func describe(op string, in any) string {
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		return fmt.Sprintf("%s %s %v", op, *in.TableName, plain(in.Key))
	case *dynamodb.PutItemInput:
		return fmt.Sprintf("%s %s %v", op, *in.TableName, plain(in.Item))
	case *dynamodb.UpdateItemInput:
		return fmt.Sprintf("%s %s %v", op, *in.TableName, plain(in.Key))
	case *dynamodb.DeleteItemInput:
		return fmt.Sprintf("%s %s %v", op, *in.TableName, plain(in.Key))
	case *dynamodb.QueryInput:
		return fmt.Sprintf("%s %s %v", op, *in.TableName, plainValue(in.ExpressionAttributeValues[":pk"]))
	case *dynamodb.ScanInput:
		return fmt.Sprintf("%s %s", op, *in.TableName)
	}
	return op
}

func plain(m map[string]types.AttributeValue) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = plainValue(v)
	}
	return out
}

func plainValue(v types.AttributeValue) any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberL:
		var l []any
		for _, e := range v.Value {
			l = append(l, plainValue(e))
		}
		return l
	case *types.AttributeValueMemberM:
		return plain(v.Value)
	case *types.AttributeValueMemberSS:
		return v.Value
	case *types.AttributeValueMemberNS:
		return v.Value
	}
	return nil
}

// TestStatementOnAMultiAttributeKey: a SELECT giving every attribute of a
// GSI's multi-attribute partition key is decided as the Query of that
// tuple; one giving only some of them as a Scan.
func TestStatementOnAMultiAttributeKey(t *testing.T) {
	s := designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "ByTZ", PKs: []string{"tenantId", "zoneCode"}}}}
	call := func(stmt string) (any, string) {
		st, err := Read(&dynamodb.ExecuteStatementInput{Statement: aws.String(stmt)})
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		in, op, _ := st.Call(s)
		return in, op
	}
	in, op := call(`SELECT * FROM "t"."ByTZ" WHERE zoneCode = 'eu' AND tenantId = 't1'`)
	q, ok := in.(*dynamodb.QueryInput)
	if op != "Query" || !ok {
		t.Fatalf("a SELECT of one tuple: %s, want a Query", op)
	}
	part, ok := s.ItemSchema().QueryPartition("ByTZ", ddbitem.Condition{Expr: aws.ToString(q.KeyConditionExpression),
		Names: q.ExpressionAttributeNames, Values: q.ExpressionAttributeValues})
	if !ok || ddbitem.PartitionText([]string{"tenantId", "zoneCode"}, part) != "tenantId=t1, zoneCode=eu" {
		t.Errorf("the Query's partition = %v (%q), want tenantId t1 and zoneCode eu", part, aws.ToString(q.KeyConditionExpression))
	}
	if _, op := call(`SELECT * FROM "t"."ByTZ" WHERE tenantId = 't1'`); op != "Scan" {
		t.Errorf("a SELECT of one attribute of the tuple: %s, want a Scan", op)
	}
}

// TestTransactionCalls: an ExecuteTransaction's EXISTS is the
// ConditionCheck of the item it names, among the transaction's writes;
// a transaction with a statement that names no single item is not
// decided (DynamoDB refuses it).
func TestTransactionCalls(t *testing.T) {
	s := ddbtest.WireSchema
	read := func(stmts ...string) (any, string, bool) {
		in := &dynamodb.ExecuteTransactionInput{}
		for _, st := range stmts {
			in.TransactStatements = append(in.TransactStatements, types.ParameterizedStatement{Statement: aws.String(st)})
		}
		tx, _, err := ReadTransaction(in)
		if err != nil {
			t.Fatalf("%v: %v", stmts, err)
		}
		return tx.Call(s)
	}
	in, op, ok := read(`exists (select n from "t" where PK = 'a' and SK = '1' and n = 1)`, `INSERT INTO "t" VALUE {'PK': 'b', 'SK': '1'}`)
	w, isWrite := in.(*dynamodb.TransactWriteItemsInput)
	if !ok || op != "TransactWriteItems" || !isWrite || len(w.TransactItems) != 2 || w.TransactItems[0].ConditionCheck == nil || w.TransactItems[1].Put == nil {
		t.Fatalf("EXISTS and an INSERT: %s %#v, want a TransactWriteItems of a ConditionCheck and a Put", op, in)
	}
	if k := plain(w.TransactItems[0].ConditionCheck.Key); fmt.Sprint(k) != "map[PK:a SK:1]" {
		t.Errorf("the ConditionCheck's key = %v, want PK a SK 1", k)
	}
	for _, stmts := range [][]string{
		{`EXISTS(SELECT * FROM "t" WHERE PK = 'a')`, `INSERT INTO "t" VALUE {'PK': 'b', 'SK': '1'}`},
		{`SELECT * FROM "t" WHERE PK = 'a'`},
		{`UPDATE "t" SET n = 1 WHERE PK = 'a'`},
	} {
		if _, op, ok := read(stmts...); ok {
			t.Errorf("%v: decided as %s, want not (DynamoDB refuses it)", stmts, op)
		}
	}
}
