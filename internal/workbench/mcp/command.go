package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// An MCP data model's access pattern carries its request as one AWS CLI
// command ("aws dynamodb query --table-name T --key-condition-expression
// '#pk = :pk' ..."), which the MCP server runs on DynamoDB Local to
// validate the model. The import reads that command into Call and
// generates the same request in Go. Command syntax:
// https://awscli.amazonaws.com/v2/documentation/api/latest/reference/dynamodb/index.html

// Call is one access pattern's request: its operation, and each item
// it reads or writes as an action (one for GetItem, Query, Scan, PutItem,
// UpdateItem and DeleteItem; one per key or request of a batch or a
// transaction).
type Call struct {
	Op         designs.Operation
	Index      string
	KeyCond    string // Query
	Filter     string // Query, Scan
	Projection string // reads
	Names      map[string]string
	Values     map[string]types.AttributeValue
	Backward   bool  // Query: --no-scan-index-forward
	Limit      int32 // Query, Scan: 0 for none
	Consistent bool
	Actions    []Action
}

// Action is one item a call reads or writes.
type Action struct {
	Kind       string // Get, Put, Update, Delete or Check
	Key, Item  map[string]types.AttributeValue
	Cond       string // its ConditionExpression
	Update     string
	Projection string
	Names      map[string]string
	Values     map[string]types.AttributeValue
}

// ErrUntranslatable is a command the import cannot turn into Go: the
// pattern stays in the catalog, uncovered, with the reason.
var ErrUntranslatable = errors.New("cannot be generated")

// Untranslatable is an ErrUntranslatable saying why.
func Untranslatable(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUntranslatable}, args...)...)
}

// ops are the commands the import translates, by CLI name.
var ops = map[string]designs.Operation{
	"get-item": designs.GetItem, "query": designs.Query, "scan": designs.Scan,
	"put-item": designs.PutItem, "update-item": designs.UpdateItem, "delete-item": designs.DeleteItem,
	"batch-get-item": designs.BatchGetItem, "batch-write-item": designs.BatchWriteItem,
	"transact-get-items": designs.TransactGetItems, "transact-write-items": designs.TransactWriteItems,
}

// OpsList lists the operations of the commands the import translates.
func OpsList() []designs.Operation {
	out := make([]designs.Operation, 0, len(ops))
	for _, op := range ops {
		out = append(out, op)
	}
	return out
}

// ignoredOptions change how the CLI prints or where it sends the call,
// not the request.
var ignoredOptions = []string{"--return-consumed-capacity", "--return-item-collection-metrics", "--output", "--region", "--endpoint-url", "--profile", "--no-cli-pager", "--return-values", "--return-values-on-condition-check-failure", "--no-paginate"}

// ParseCommand reads an AWS CLI command for table into a Call.
func ParseCommand(cmd, table string) (*Call, error) {
	words, err := shellWords(cmd)
	if err != nil {
		return nil, err
	}
	if len(words) < 3 || words[0] != "aws" || words[1] != "dynamodb" {
		return nil, Untranslatable("the implementation is not one aws dynamodb command")
	}
	op, ok := ops[words[2]]
	if !ok {
		return nil, Untranslatable("aws dynamodb %s is not a data-plane call the import translates", words[2])
	}
	c := &Call{Op: op}
	opts := map[string]string{}
	for i := 3; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--scan-index-forward" || w == "--no-scan-index-forward":
			c.Backward = w == "--no-scan-index-forward"
		case w == "--consistent-read" || w == "--no-consistent-read":
			c.Consistent = w == "--consistent-read"
		case slices.Contains(ignoredOptions, w):
			if w != "--no-cli-pager" && w != "--no-paginate" {
				i++
			}
		case strings.HasPrefix(w, "--") && i+1 < len(words):
			if _, dup := opts[w]; dup {
				return nil, Untranslatable("%s is given twice", w)
			}
			opts[w] = words[i+1]
			i++
		default:
			return nil, Untranslatable("the command's word %q is not an option the import knows", w)
		}
	}
	take := func(name string) string { v := opts[name]; delete(opts, name); return v }
	if t := take("--table-name"); t != "" && t != table {
		return nil, Untranslatable("it names table %q, not its own table %q", t, table)
	}
	c.Index = take("--index-name")
	c.KeyCond, c.Filter, c.Projection = take("--key-condition-expression"), take("--filter-expression"), take("--projection-expression")
	if err := jsonOption(take("--expression-attribute-names"), "--expression-attribute-names", &c.Names); err != nil {
		return nil, err
	}
	if c.Values, err = valuesOption(take("--expression-attribute-values"), "--expression-attribute-values"); err != nil {
		return nil, err
	}
	if l := take("--limit"); l != "" {
		n, err := strconv.ParseInt(l, 10, 32)
		if err != nil || n < 1 {
			return nil, Untranslatable("--limit %q is not a positive count", l)
		}
		c.Limit = int32(n)
	}
	if s := take("--select"); s != "" && s != "ALL_ATTRIBUTES" && s != "ALL_PROJECTED_ATTRIBUTES" {
		return nil, Untranslatable("--select %s: the import's reads return items, not counts or chosen attributes", s)
	}
	single := Action{Cond: take("--condition-expression"), Update: take("--update-expression"), Names: c.Names, Values: c.Values, Projection: c.Projection}
	if single.Key, err = valuesOption(take("--key"), "--key"); err != nil {
		return nil, err
	}
	if single.Item, err = valuesOption(take("--item"), "--item"); err != nil {
		return nil, err
	}
	switch op {
	case designs.GetItem, designs.DeleteItem, designs.UpdateItem:
		single.Kind = map[designs.Operation]string{designs.GetItem: "Get", designs.DeleteItem: "Delete", designs.UpdateItem: "Update"}[op]
		if single.Key == nil {
			return nil, Untranslatable("%s without --key", op)
		}
		c.Actions = []Action{single}
	case designs.PutItem:
		single.Kind = "Put"
		if single.Item == nil {
			return nil, Untranslatable("PutItem without --item")
		}
		c.Actions = []Action{single}
	case designs.Query:
		if c.KeyCond == "" {
			return nil, Untranslatable("a Query without --key-condition-expression")
		}
	case designs.BatchGetItem, designs.BatchWriteItem:
		if c.Actions, err = batchActions(op, take("--request-items"), table); err != nil {
			return nil, err
		}
	case designs.TransactGetItems, designs.TransactWriteItems:
		if c.Actions, err = transactActions(take("--transact-items"), table); err != nil {
			return nil, err
		}
	}
	if len(opts) > 0 { // the first by name, so that the generated files do not vary
		return nil, Untranslatable("the option %s does not belong to %s, or the import does not translate it", slices.Sorted(maps.Keys(opts))[0], op)
	}
	return c, nil
}

// shellWords splits a command as a POSIX shell would, quotes and
// backslashes, refusing what would run more than one command.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quote, escaped := false, rune(0), false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped, in = false, true
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped = true
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case strings.ContainsRune(";&|<>`$()", r):
			return nil, Untranslatable("the implementation holds %q outside quotes: it must be one command", r)
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 || escaped {
		return nil, Untranslatable("the implementation ends inside a quote")
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

func jsonOption(text, name string, into any) error {
	if text == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(text), into); err != nil {
		return Untranslatable("%s is not the JSON it takes: %v", name, err)
	}
	return nil
}

// valuesOption reads an option of attributes in DynamoDB's JSON.
func valuesOption(text, name string) (map[string]types.AttributeValue, error) {
	if text == "" {
		return nil, nil
	}
	m, err := ddbitem.DecodeJSONItem(json.RawMessage(text), name)
	if err != nil {
		return nil, Untranslatable("%v", err)
	}
	return m, nil
}

// request is one entry of --request-items or --transact-items.
type request struct {
	TableName                 string
	Key, Item                 json.RawMessage
	ConditionExpression       string
	UpdateExpression          string
	ProjectionExpression      string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues json.RawMessage
}

func (r request) action(kind, at string) (Action, error) {
	a := Action{Kind: kind, Cond: r.ConditionExpression, Update: r.UpdateExpression, Projection: r.ProjectionExpression, Names: r.ExpressionAttributeNames}
	var err error
	if a.Key, err = valuesOption(string(r.Key), at+".Key"); err != nil {
		return a, err
	}
	if a.Item, err = valuesOption(string(r.Item), at+".Item"); err != nil {
		return a, err
	}
	if a.Values, err = valuesOption(string(r.ExpressionAttributeValues), at+".ExpressionAttributeValues"); err != nil {
		return a, err
	}
	if (kind == "Put") != (a.Item != nil) || (kind != "Put") != (a.Key != nil) {
		return a, Untranslatable("%s: a %s without its key or item", at, kind)
	}
	return a, nil
}

func batchActions(op designs.Operation, text, table string) ([]Action, error) {
	var out []Action
	if op == designs.BatchGetItem {
		var in map[string]struct {
			Keys                     []json.RawMessage
			ProjectionExpression     string
			ExpressionAttributeNames map[string]string
			ConsistentRead           bool
		}
		if err := jsonOption(text, "--request-items", &in); err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(in)) {
			r := in[name]
			if name != table {
				return nil, Untranslatable("it reads table %q too: a design is one table", name)
			}
			for i, k := range r.Keys {
				a, err := request{Key: k, ProjectionExpression: r.ProjectionExpression, ExpressionAttributeNames: r.ExpressionAttributeNames}.action("Get", fmt.Sprintf("--request-items.Keys[%d]", i))
				if err != nil {
					return nil, err
				}
				out = append(out, a)
			}
		}
	} else {
		var in map[string][]struct{ PutRequest, DeleteRequest *request }
		if err := jsonOption(text, "--request-items", &in); err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(in)) {
			rs := in[name]
			if name != table {
				return nil, Untranslatable("it writes table %q too: a design is one table", name)
			}
			for i, r := range rs {
				at := fmt.Sprintf("--request-items[%d]", i)
				var a Action
				var err error
				switch {
				case r.PutRequest != nil:
					a, err = r.PutRequest.action("Put", at)
				case r.DeleteRequest != nil:
					a, err = r.DeleteRequest.action("Delete", at)
				default:
					err = Untranslatable("%s is neither a PutRequest nor a DeleteRequest", at)
				}
				if err != nil {
					return nil, err
				}
				out = append(out, a)
			}
		}
	}
	if len(out) == 0 {
		return nil, Untranslatable("--request-items names no item")
	}
	return out, nil
}

func transactActions(text, table string) ([]Action, error) {
	var in []map[string]request
	if err := jsonOption(text, "--transact-items", &in); err != nil {
		return nil, err
	}
	var out []Action
	for i, entry := range in {
		if len(entry) != 1 {
			return nil, Untranslatable("--transact-items[%d] holds %d requests, not one", i, len(entry))
		}
		for kind, r := range entry {
			k := map[string]string{"Get": "Get", "Put": "Put", "Update": "Update", "Delete": "Delete", "ConditionCheck": "Check"}[kind]
			if k == "" {
				return nil, Untranslatable("--transact-items[%d]: %s is not a transaction request", i, kind)
			}
			if r.TableName != table {
				return nil, Untranslatable("--transact-items[%d] names table %q: a design is one table", i, r.TableName)
			}
			a, err := r.action(k, fmt.Sprintf("--transact-items[%d]", i))
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, Untranslatable("--transact-items names no item")
	}
	return out, nil
}

// topLevelNames reads a projection expression of top-level attributes
// ("#a, b") into their names; nested paths are not translated.
func topLevelNames(expr string, names map[string]string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(expr, ",") {
		p = strings.TrimSpace(p)
		if !plainName.MatchString(p) {
			return nil, Untranslatable("the projection %q names a nested attribute", expr)
		}
		if strings.HasPrefix(p, "#") {
			n, ok := names[p]
			if !ok {
				return nil, Untranslatable("the projection's %s is not among --expression-attribute-names", p)
			}
			p = n
		}
		out = append(out, p)
	}
	return out, nil
}

var plainName = regexp.MustCompile(`^#?[A-Za-z0-9_]+$`)
