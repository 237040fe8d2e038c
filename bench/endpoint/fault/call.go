package fault

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// Call is a request as rules match it: its operation, the index a Query
// or Scan names, and its items in the request's order (a batch's tables
// sorted by name), each with its table and its attributes' values.
type Call struct {
	Op    string
	Index string
	Items []Item
}

// Item is one item a call touches: an action of a transaction, a request
// or key of a batch, the key or item of a single-item call, a Query's key
// condition, a Scan's table. Key holds its top-level scalar attributes
// (S, N, B) as text.
type Item struct {
	Table string
	Key   map[string]string
}

// value is a DynamoDB JSON attribute value, read as far as a key needs.
type value struct {
	S, N, B *string
}

func (v value) text() (string, bool) {
	for _, p := range []*string{v.S, v.N, v.B} {
		if p != nil {
			return *p, true
		}
	}
	return "", false
}

type attrs map[string]value

func (a attrs) key() map[string]string {
	k := map[string]string{}
	for name, v := range a {
		if t, ok := v.text(); ok {
			k[name] = t
		}
	}
	return k
}

type single struct {
	TableName string
	IndexName string
	Key       attrs
	Item      attrs

	KeyConditionExpression    string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attrs
	KeyConditions             map[string]struct {
		ComparisonOperator string
		AttributeValueList []value
	}
}

type writeRequest struct {
	PutRequest    *struct{ Item attrs }
	DeleteRequest *struct{ Key attrs }
}

type txAction struct {
	TableName string
	Key       attrs
	Item      attrs
}

type request struct {
	single
	RequestItems  json.RawMessage
	TransactItems []map[string]txAction
	// ExecuteTransaction's statements: counted, not read.
	TransactStatements []json.RawMessage
}

// Read is the call op's request body makes; a body it cannot read is a
// call of op with no items (matched by op alone).
func Read(op string, body []byte) Call {
	c := Call{Op: op}
	var r request
	if json.Unmarshal(body, &r) != nil {
		return c
	}
	switch op {
	case "GetItem", "DeleteItem", "UpdateItem":
		c.Items = []Item{{TableName(r.TableName), r.Key.key()}}
	case "PutItem":
		c.Items = []Item{{TableName(r.TableName), r.Item.key()}}
	case "Query":
		c.Index = r.IndexName
		c.Items = []Item{{TableName(r.TableName), r.single.condition()}}
	case "Scan":
		c.Index = r.IndexName
		c.Items = []Item{{TableName(r.TableName), map[string]string{}}}
	case "BatchWriteItem":
		var m map[string][]writeRequest
		json.Unmarshal(r.RequestItems, &m)
		for _, t := range sortedKeys(m) {
			for _, w := range m[t] {
				switch {
				case w.PutRequest != nil:
					c.Items = append(c.Items, Item{TableName(t), w.PutRequest.Item.key()})
				case w.DeleteRequest != nil:
					c.Items = append(c.Items, Item{TableName(t), w.DeleteRequest.Key.key()})
				default:
					c.Items = append(c.Items, Item{TableName(t), map[string]string{}})
				}
			}
		}
	case "BatchGetItem":
		var m map[string]struct{ Keys []attrs }
		json.Unmarshal(r.RequestItems, &m)
		for _, t := range sortedKeys(m) {
			for _, k := range m[t].Keys {
				c.Items = append(c.Items, Item{TableName(t), k.key()})
			}
		}
	case "TransactWriteItems", "TransactGetItems":
		for _, a := range r.TransactItems {
			it := Item{Key: map[string]string{}}
			for _, x := range a { // one of Put, Update, Delete, ConditionCheck, Get
				it.Table = TableName(x.TableName)
				if x.Item != nil {
					it.Key = x.Item.key()
				} else {
					it.Key = x.Key.key()
				}
			}
			c.Items = append(c.Items, it)
		}
	case "ExecuteTransaction":
		c.Items = make([]Item, len(r.TransactStatements))
	}
	return c
}

// eq is an equality in a key condition: a name (or #placeholder) and a
// :value, either way round.
var eq = regexp.MustCompile(`([#\w.\-]+)\s*=\s*(:[\w\-]+)|(:[\w\-]+)\s*=\s*([#\w.\-]+)`)

// condition is a Query's key condition's equalities as attributes and
// values: its partition key, and a sort key given exactly.
func (s single) condition() map[string]string {
	k := map[string]string{}
	for name, c := range s.KeyConditions {
		if c.ComparisonOperator == "EQ" && len(c.AttributeValueList) == 1 {
			if t, ok := c.AttributeValueList[0].text(); ok {
				k[name] = t
			}
		}
	}
	for _, m := range eq.FindAllStringSubmatch(s.KeyConditionExpression, -1) {
		name, v := m[1], m[2]
		if name == "" {
			name, v = m[4], m[3]
		}
		if n, ok := s.ExpressionAttributeNames[name]; ok {
			name = n
		}
		if t, ok := s.ExpressionAttributeValues[v].text(); ok {
			k[name] = t
		}
	}
	return k
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TableName is the name of the table a request names, by name or by ARN
// (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME, which DynamoDB accepts as
// a TableName): both are one table, for the endpoint's limits and for
// its rules.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html (TableName: "the name of the table ... You can also provide the Amazon Resource Name (ARN)")
func TableName(s string) string {
	if !strings.HasPrefix(s, "arn:") {
		return s
	}
	_, rest, ok := strings.Cut(s, ":table/")
	if !ok {
		return s
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// Write reports whether op writes, for the side a throttling reason
// names; a PartiQL statement is a read unless it says otherwise (the
// endpoint does not parse it for this).
func Write(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}
