package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// AccessPattern is one access pattern of an MCP data model, as written.
type AccessPattern struct {
	Pattern        string `json:"pattern"`
	Description    string `json:"description"`
	Table          string `json:"table"`
	Index          string `json:"index"`
	Operation      string `json:"dynamodb_operation"`
	Implementation string `json:"implementation"`
	Reason         string `json:"reason"`
	// Its declared traffic, as the MCP server's cost and performance
	// calculator takes it: requests per second at peak, and the size of
	// the items it reads or writes. Absent: not declared.
	Rate      *float64 `json:"rps"`
	ItemBytes *float64 `json:"item_size_bytes"`
}

// Pattern is what Func and Spec write of a translated access pattern:
// its ID, catalog name and Go name, its request, the request's arguments,
// and what it does to the samples.
type Pattern struct {
	ID     designs.PatternID
	Name   string
	Go     string
	Op     designs.Operation
	Call   *Call
	Params []Param
	Result Result
}

// Param is one argument of a generated pattern function: a value of
// the model's command, which its spec passes back.
type Param struct {
	Go   string // the parameter's name
	Type string // its Go type
	AV   types.AttributeValue
}

// argOf is the parameter that carries v, if any.
func argOf(params []Param, v types.AttributeValue) *Param {
	for i := range params {
		if params[i].AV == v {
			return &params[i]
		}
	}
	return nil
}

// valueExpr is the Go expression of v in the request: its parameter's,
// or its literal.
func valueExpr(params []Param, v types.AttributeValue) string {
	p := argOf(params, v)
	if p == nil {
		return AVLiteral(v)
	}
	switch p.Type {
	case "string":
		return "&types.AttributeValueMemberS{Value: " + p.Go + "}"
	case "bool":
		return "&types.AttributeValueMemberBOOL{Value: " + p.Go + "}"
	case "float64":
		return "&types.AttributeValueMemberN{Value: strconv.FormatFloat(" + p.Go + ", 'f', -1, 64)}"
	}
	return p.Go
}

// avMap is a map of attributes as a Go literal, values by valueExpr.
func avMap(params []Param, m map[string]types.AttributeValue) string {
	if m == nil {
		return "nil"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, strconv.Quote(k)+": "+valueExpr(params, m[k]))
	}
	return "map[string]types.AttributeValue{" + strings.Join(parts, ", ") + "}"
}

// AVLiteral is v as a Go literal of the SDK's types.
func AVLiteral(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "&types.AttributeValueMemberS{Value: " + strconv.Quote(v.Value) + "}"
	case *types.AttributeValueMemberN:
		return "&types.AttributeValueMemberN{Value: " + strconv.Quote(v.Value) + "}"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("&types.AttributeValueMemberB{Value: []byte(%q)}", v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("&types.AttributeValueMemberBOOL{Value: %t}", v.Value)
	case *types.AttributeValueMemberNULL:
		return "&types.AttributeValueMemberNULL{Value: true}"
	case *types.AttributeValueMemberSS:
		return "&types.AttributeValueMemberSS{Value: " + scaffold.StringSlice(v.Value) + "}"
	case *types.AttributeValueMemberNS:
		return "&types.AttributeValueMemberNS{Value: " + scaffold.StringSlice(v.Value) + "}"
	case *types.AttributeValueMemberBS:
		var parts []string
		for _, b := range v.Value {
			parts = append(parts, fmt.Sprintf("[]byte(%q)", b))
		}
		return "&types.AttributeValueMemberBS{Value: [][]byte{" + strings.Join(parts, ", ") + "}}"
	case *types.AttributeValueMemberM:
		return "&types.AttributeValueMemberM{Value: " + avMap(nil, v.Value) + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range v.Value {
			parts = append(parts, AVLiteral(e))
		}
		return "&types.AttributeValueMemberL{Value: []types.AttributeValue{" + strings.Join(parts, ", ") + "}}"
	}
	return "nil"
}

func quoteOrNil(s string) string {
	if s == "" {
		return "nil"
	}
	return "aws.String(" + strconv.Quote(s) + ")"
}

func namesLiteral(names map[string]string) string {
	if names == nil {
		return "nil"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(names)) {
		parts = append(parts, strconv.Quote(k)+": "+strconv.Quote(names[k]))
	}
	return "map[string]string{" + strings.Join(parts, ", ") + "}"
}

// exprFields are an action's expression fields of an SDK input, as Go.
func exprFields(params []Param, a Action, extra ...string) string {
	fields := slices.Clone(extra)
	if a.Cond != "" {
		fields = append(fields, "ConditionExpression: "+quoteOrNil(a.Cond))
	}
	if a.Update != "" {
		fields = append(fields, "UpdateExpression: "+quoteOrNil(a.Update))
	}
	if a.Projection != "" {
		fields = append(fields, "ProjectionExpression: "+quoteOrNil(a.Projection))
	}
	if a.Names != nil {
		fields = append(fields, "ExpressionAttributeNames: "+namesLiteral(a.Names))
	}
	if a.Values != nil {
		fields = append(fields, "ExpressionAttributeValues: "+avMap(params, a.Values))
	}
	return strings.Join(fields, ", ")
}

// Func writes the function of a model's pattern p: the request its
// command makes, on the design's table. indexConst names an index's Go
// constant.
func Func(s *scaffold.Source, p Pattern, indexConst func(string) string) {
	c, params := p.Call, p.Params
	var args []string
	for _, a := range params {
		args = append(args, a.Go+" "+a.Type)
	}
	sig := strings.Join(append([]string{"ctx context.Context"}, args...), ", ")
	where := "main table"
	if c.Index != "" {
		where = "index " + strconv.Quote(c.Index)
	}
	s.Code("// %s is %s (%s, %s): %q, the request of the model's command.", p.Go, p.ID, where, c.Op, p.Name)
	fail := fmt.Sprintf("fmt.Errorf(\"%%s: %%w\", %sID, err)", p.Go)
	switch c.Op {
	case designs.GetItem:
		a := c.Actions[0]
		s.Code("// A key without an item gives nil.")
		s.Code("func (t Table) %s(%s) (map[string]types.AttributeValue, error) {", p.Go, sig)
		s.Code("out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{%s})", exprFields(params, Action{Projection: a.Projection, Names: a.Names},
			"TableName: aws.String(t.Name)", "Key: "+avMap(params, a.Key), fmt.Sprintf("ConsistentRead: aws.Bool(%t)", c.Consistent)))
		s.Code("if err != nil {\nreturn nil, %s\n}\nreturn out.Item, nil\n}", fail)
	case designs.Query, designs.Scan:
		extra := []string{"TableName: aws.String(t.Name)", fmt.Sprintf("ConsistentRead: aws.Bool(%t)", c.Consistent)}
		if c.Index != "" {
			extra = append(extra, "IndexName: aws.String("+indexConst(c.Index)+")")
		}
		if c.Op == designs.Query {
			extra = append(extra, "KeyConditionExpression: "+quoteOrNil(c.KeyCond), fmt.Sprintf("ScanIndexForward: aws.Bool(%t)", !c.Backward))
		}
		if c.Filter != "" {
			extra = append(extra, "FilterExpression: "+quoteOrNil(c.Filter))
		}
		if c.Limit > 0 {
			extra = append(extra, fmt.Sprintf("Limit: aws.Int32(%d)", c.Limit))
		}
		s.Code("// It reads every page, or the first alone when the command sets a limit.")
		s.Code("func (t Table) %s(%s) ([]map[string]types.AttributeValue, error) {", p.Go, sig)
		s.Code("in := &dynamodb.%sInput{%s}", c.Op, exprFields(params, Action{Projection: c.Projection, Names: c.Names, Values: c.Values}, extra...))
		s.Code("var items []map[string]types.AttributeValue\nfor {")
		s.Code("out, err := t.DB.%s(ctx, in)\nif err != nil {\nreturn nil, %s\n}", c.Op, fail)
		s.Code("items = append(items, out.Items...)\nif len(out.LastEvaluatedKey) == 0 || in.Limit != nil {\nreturn items, nil\n}\nin.ExclusiveStartKey = out.LastEvaluatedKey\n}\n}")
	case designs.BatchGetItem:
		var keys []string
		for _, a := range c.Actions {
			keys = append(keys, avMap(params, a.Key))
		}
		a := c.Actions[0]
		s.Code("// Keys DynamoDB hands back unprocessed are asked for again.")
		s.Code("func (t Table) %s(%s) ([]map[string]types.AttributeValue, error) {", p.Go, sig)
		s.Code("req := map[string]types.KeysAndAttributes{t.Name: {%s}}", exprFields(params, Action{Projection: a.Projection, Names: a.Names}, "Keys: []map[string]types.AttributeValue{"+strings.Join(keys, ", ")+"}"))
		s.Code("var items []map[string]types.AttributeValue\nfor len(req) > 0 {")
		s.Code("out, err := t.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})\nif err != nil {\nreturn nil, %s\n}", fail)
		s.Code("items = append(items, out.Responses[t.Name]...)\nreq = out.UnprocessedKeys\n}\nreturn items, nil\n}")
	case designs.TransactGetItems:
		var gets []string
		for _, a := range c.Actions {
			gets = append(gets, "{Get: &types.Get{"+exprFields(params, Action{Projection: a.Projection, Names: a.Names}, "TableName: aws.String(t.Name)", "Key: "+avMap(params, a.Key))+"}}")
		}
		s.Code("// Its items in the order of its requests, nil where a key has none.")
		s.Code("func (t Table) %s(%s) ([]map[string]types.AttributeValue, error) {", p.Go, sig)
		s.Code("out, err := t.DB.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{%s}})", strings.Join(gets, ", "))
		s.Code("if err != nil {\nreturn nil, %s\n}", fail)
		s.Code("items := make([]map[string]types.AttributeValue, len(out.Responses))\nfor i, r := range out.Responses {\nitems[i] = r.Item\n}\nreturn items, nil\n}")
	default:
		s.Code("func (t Table) %s(%s) error {", p.Go, sig)
		s.Code("%s\nif err != nil {\nreturn %s\n}\nreturn nil\n}", writeCall(c, params), fail)
	}
}

// writeCall is the Go statement that sends a write.
func writeCall(c *Call, params []Param) string {
	a := c.Actions[0]
	table := "TableName: aws.String(t.Name)"
	switch c.Op {
	case designs.PutItem:
		return "_, err := t.DB.PutItem(ctx, &dynamodb.PutItemInput{" + exprFields(params, a, table, "Item: "+avMap(params, a.Item)) + "})"
	case designs.UpdateItem:
		return "_, err := t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{" + exprFields(params, a, table, "Key: "+avMap(params, a.Key)) + "})"
	case designs.DeleteItem:
		return "_, err := t.DB.DeleteItem(ctx, &dynamodb.DeleteItemInput{" + exprFields(params, a, table, "Key: "+avMap(params, a.Key)) + "})"
	case designs.BatchWriteItem:
		var ws []string
		for _, a := range c.Actions {
			if a.Kind == "Put" {
				ws = append(ws, "{PutRequest: &types.PutRequest{Item: "+avMap(params, a.Item)+"}}")
			} else {
				ws = append(ws, "{DeleteRequest: &types.DeleteRequest{Key: "+avMap(params, a.Key)+"}}")
			}
		}
		return "req := map[string][]types.WriteRequest{t.Name: {" + strings.Join(ws, ", ") + "}}\nvar err error\nfor len(req) > 0 && err == nil {\nvar out *dynamodb.BatchWriteItemOutput\nif out, err = t.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: req}); err == nil {\nreq = out.UnprocessedItems\n}\n}"
	}
	var ts []string
	for _, a := range c.Actions {
		switch a.Kind {
		case "Put":
			ts = append(ts, "{Put: &types.Put{"+exprFields(params, a, table, "Item: "+avMap(params, a.Item))+"}}")
		case "Check":
			ts = append(ts, "{ConditionCheck: &types.ConditionCheck{"+exprFields(params, a, table, "Key: "+avMap(params, a.Key))+"}}")
		default:
			ts = append(ts, "{"+a.Kind+": &types."+a.Kind+"{"+exprFields(params, a, table, "Key: "+avMap(params, a.Key))+"}}")
		}
	}
	// Through designs.Transact, as a hand-written design's transactions go:
	// each sending its own token, a conflict sent again, then
	// designs.ErrTransactionConflict.
	return "err := designs.Transact(ctx, t.DB, []types.TransactWriteItem{" + strings.Join(ts, ", ") + "})"
}

// Args are the values of a model pattern's command as Go literals,
// its function's arguments after ctx: what its spec passes, and the
// scenario's driver.
func Args(params []Param) []string {
	var args []string
	for _, a := range params {
		switch a.Type {
		case "string":
			args = append(args, strconv.Quote(ddbitem.KeyText(a.AV)))
		case "float64":
			args = append(args, a.AV.(*types.AttributeValueMemberN).Value)
		case "bool":
			args = append(args, strconv.FormatBool(a.AV.(*types.AttributeValueMemberBOOL).Value))
		default:
			args = append(args, AVLiteral(a.AV))
		}
	}
	return args
}

// Reads is whether the function of a model's pattern of operation op
// returns items beside its error.
func Reads(op designs.Operation) bool {
	switch op {
	case designs.GetItem, designs.Query, designs.Scan, designs.BatchGetItem, designs.TransactGetItems:
		return true
	}
	return false
}

// ItemText is an item as the generated specs of a model's patterns
// compare it: DynamoDB's JSON, numbers as DynamoDB returns them; "" for
// no item.
func ItemText(item map[string]types.AttributeValue) string {
	if item == nil {
		return ""
	}
	b, _ := json.Marshal(ddbitem.CanonicalJSON(item))
	return string(b)
}

// Spec expects a read's items from the samples, or a write's items
// afterwards at every key it touches, each put back as the samples had it
// once the spec ends. faultedRead is what a read's spec says where hostile
// verify hands back a fault.
func Spec(s *scaffold.Source, p Pattern, faultedRead string) {
	call := fmt.Sprintf("table.%s(%s)", p.Go, strings.Join(append([]string{"ctx"}, Args(p.Params)...), ", "))
	r := p.Result
	texts := func(items []map[string]types.AttributeValue) string {
		var out []string
		for _, it := range items {
			out = append(out, strconv.Quote(ItemText(it)))
		}
		return "[]string{" + strings.Join(out, ", ") + "}"
	}
	switch p.Op {
	case designs.GetItem:
		s.Code("It(%q, func(ctx SpecContext) {", "returns the model's item for its command's key")
		s.Code("item, err := %s\nif env.Faulted(err) {\nreturn // %s\n}\nExpect(err).NotTo(HaveOccurred())", call, faultedRead)
		s.Code("Expect(itemTexts(item)).To(Equal(%s))\n})", texts(r.Items))
	case designs.Query, designs.Scan, designs.BatchGetItem, designs.TransactGetItems:
		match, order := "Equal", "in order"
		if r.Unordered {
			match, order = "ConsistOf", "in any order"
		}
		s.Code("It(%q, func(ctx SpecContext) {", fmt.Sprintf("returns the %d sample items its command selects, %s", len(r.Items), order))
		s.Code("items, err := %s\nif env.Faulted(err) {\nreturn // %s\n}\nExpect(err).NotTo(HaveOccurred())", call, faultedRead)
		s.Code("Expect(itemTexts(items...)).To(%s(%s))\n})", match, texts(r.Items))
	default:
		var keys []string
		for _, k := range r.Keys {
			keys = append(keys, avMap(nil, k))
		}
		what := "leaves the items its command writes"
		if r.Fails {
			what = "is refused by its condition on the samples, which it leaves as they were"
		}
		s.Code("It(%q, func(ctx SpecContext) {", what)
		s.Code("keys := []map[string]types.AttributeValue{%s}", strings.Join(keys, ", "))
		s.Code("DeferCleanup(restore, keys)")
		s.Code("before, after := itemsAt(ctx, keys), %s", texts(r.After))
		// Under hostile verify each fault handed back wrote nothing, and
		// the command is sent again until it passes the profile's faults.
		s.Code("err := env.Again(func() error { return %s }, func() { Expect(itemsAt(ctx, keys)).To(Equal(before)) })", call)
		switch {
		case r.Fails && p.Op == designs.TransactWriteItems:
			s.Code("_, failed := designs.FailedConditions(err)\nExpect(failed).To(BeTrue(), \"%%v\", err)")
		case r.Fails:
			s.Code("Expect(designs.IsConditionFailed(err)).To(BeTrue(), \"%%v\", err)")
		default:
			s.Code("Expect(err).NotTo(HaveOccurred())")
		}
		s.Code("Expect(itemsAt(ctx, keys)).To(Equal(after))\n})")
	}
}
