package workbench_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// The model's free text, by where it sits: each fuzz input puts its text
// in one of these places of the shop model and leaves the others plain.
const (
	atModelName    = iota
	atTableName    // the table, named in comments and the catalog summary
	atFacet0       // the customers' facet name
	atFacet1       // the orders' facet name
	atTypeValue    // the customers' EntityType value
	atTypeAsFacet  // the same, in the model without facets: the facet's name (this place's own text is unused)
	atAttr         // a declared attribute, listed by the customers' facet
	atValue        // a customer's value of that attribute
	atIndex        // the GSI's name
	atTag          // the constant of every partition key ("CUST#c1")
	atIndexTag     // the constant of the customers' GSI partition key
	atIndexKeyAttr // the GSI's partition key attribute
	atMapKey       // a key of the orders' map attribute
	atSampleAttr   // an attribute only the customers' samples have
	atTableKeyAttr // the table's partition key attribute
	places         // how many
)

// shopText is the plain text of each place.
var shopText = [places]string{"Shop", "Shop", "Customer", "Order", "customer", "customer", "Name", "Ann", "ByStatus", "CUST", "EMAIL", "GSI1PK", "gift", "City", "PK"}

// shopModel is a model of two facets sharing partitions, a GSI and a few
// samples, with text[i] in place i; without facets, its items are all the
// table's own, told apart by EntityType.
func shopModel(text [places]string, facets bool) []byte {
	s := func(v string) map[string]any { return map[string]any{"S": v} }
	key := func(name, typ string) map[string]any {
		return map[string]any{"AttributeName": name, "AttributeType": typ}
	}
	pk, attr, gpk := text[atTableKeyAttr], text[atAttr], text[atIndexKeyAttr]
	customer := func(id, name, email, city string) map[string]any {
		return map[string]any{pk: s(text[atTag] + "#" + id), "SK": s("PROFILE"), "EntityType": s(text[atTypeValue]),
			attr: s(name), text[atSampleAttr]: s(city), gpk: s(text[atIndexTag] + "#" + email), "GSI1SK": s("PROFILE")}
	}
	order := func(customer, id, total, status, gift string) map[string]any {
		return map[string]any{pk: s(customer), "SK": s("ORDER#" + id), "EntityType": s("order"), "Total": map[string]any{"N": total},
			"Meta": map[string]any{"M": map[string]any{text[atMapKey]: s(gift), "wrap": s("red")}},
			gpk:    s("STATUS#" + status), "GSI1SK": s("ORDER#" + id)}
	}
	customers := []any{customer("c1", text[atValue], "ann@x.io", "Oslo"), customer("c2", "Bo", "bo@x.io", "Rome")}
	orders := []any{order(text[atTag]+"#c1", "o1", "12.5", "open", "card"), order(text[atTag]+"#c2", "o2", "7", "shipped", "bow")}
	table := map[string]any{
		"TableName":        text[atTableName],
		"KeyAttributes":    map[string]any{"PartitionKey": key(pk, "S"), "SortKey": key("SK", "S")},
		"NonKeyAttributes": []any{key("EntityType", "S"), key(attr, "S"), key("Total", "N"), key(gpk, "S"), key("GSI1SK", "S")},
		"GlobalSecondaryIndexes": []any{map[string]any{"IndexName": text[atIndex],
			"KeyAttributes": map[string]any{"PartitionKey": key(gpk, "S"), "SortKey": key("GSI1SK", "S")},
			"Projection":    map[string]any{"ProjectionType": "ALL"}}},
	}
	if facets {
		alias := map[string]any{"PartitionKeyAlias": "CustomerID", "SortKeyAlias": "Kind"}
		table["TableFacets"] = []any{
			map[string]any{"FacetName": text[atFacet0], "KeyAttributeAlias": alias, "NonKeyAttributes": []any{attr}, "TableData": customers},
			map[string]any{"FacetName": text[atFacet1], "KeyAttributeAlias": alias, "TableData": orders},
		}
	} else {
		table["TableData"] = slices.Concat(customers, orders)
	}
	b, err := json.Marshal(map[string]any{"ModelName": text[atModelName], "DataModel": []any{table}})
	if err != nil {
		panic(err)
	}
	return b
}

// hostile are texts that would be code, or end a comment or a literal, if
// they reached the generated Go as they are; the last holds in one text
// what Go source cannot hold as it is or what a quote must escape.
var hostile = []string{
	`a"); panic("x`,
	"a\n}\nfunc init() { panic(1) }\n//",
	"a%d%w",
	"a`b",
	strings.Repeat("long text ", 500),
	"*/ /* \\ \" \r\n Ünïcødé 名前 ✓ \u2028\u00a0\ufeff\x00",
}

// FuzzGeneratedCodeHoldsOnlyWhatItWrote puts text in one place of a model
// and checks that the generated files parse and hold the same code as the
// plain model's: text may change names, literals and comments, nothing
// else.
func FuzzGeneratedCodeHoldsOnlyWhatItWrote(f *testing.F) {
	for _, s := range hostile {
		for at := range places {
			f.Add(uint8(at), s)
		}
	}
	f.Fuzz(func(t *testing.T, at uint8, s string) {
		t.Parallel() // the seed corpus runs as a unit test: on every core
		why := checkText(t, int(at)%places, s)
		switch {
		case why != "" && slices.Contains(hostile, s):
			t.Errorf("%q in place %d compared nothing, which it must: %s", s, int(at)%places, why)
		case why != "":
			t.Skip(why)
		}
	})
}

// checkText generates the shop model with s in place at and compares it
// with the plain model's (compareWithPlain).
func checkText(t *testing.T, at int, s string) string {
	t.Helper()
	facets := at != atTypeAsFacet
	text := shopText
	if facets {
		text[at] = s
	} else {
		text[atTypeValue] = s
	}
	return compareWithPlain(t, at, s, shopModel(text, facets), func() *plain {
		return plainModel(t, fmt.Sprintf("shop, facets %t", facets), func() []byte { return shopModel(shopText, facets) })
	})
}

// compareWithPlain generates model, which holds s in place at, and
// compares its design and its files' code with the plain model's. It
// returns why it compared nothing: the model was refused, or its text
// changed what the import reads.
func compareWithPlain(t *testing.T, at int, s string, model []byte, plainOf func() *plain) string {
	t.Helper()
	d, files, err := generate(model)
	if errors.Is(err, modelfile.ErrBadModel) || errors.Is(err, scaffold.ErrRefused) {
		return "refused: " + err.Error()
	}
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n") // not the whole file
		t.Errorf("%q in place %d: %s", s, at, msg)
		return ""
	}
	plain := plainOf()
	if got, want := shapeOf(d), shapeOf(plain.d); got != want {
		return "read otherwise:\n" + got + "\nnot\n" + want
	}
	for path, src := range files {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Errorf("%q in place %d: %s does not parse: %v", s, at, path, err)
			continue
		}
		got, want := nodes(fset, file), plain.nodes[path]
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%q in place %d: %s holds code the plain model's does not: %s where the plain model has %s, at\n%s",
				s, at, path, got[i].kind, at0(want, i), around(src, got[i].pos.Line))
		}
	}
	return ""
}

func generate(model []byte) (*shape.Design, map[string]string, error) {
	m, err := modelfile.Parse(model)
	if err != nil {
		return nil, nil, err
	}
	d, err := shape.Infer("shop", m.DataModel[0])
	if err != nil {
		return nil, nil, err
	}
	files, err := workbench.Files(d, m.ModelName)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Content)
	}
	return d, out, nil
}

// plain is the plain model's design and its files' nodes.
type plain struct {
	d     *shape.Design
	nodes map[string][]node
}

var (
	plainMu   sync.Mutex
	plainDone = map[string]*plain{}
)

// plainModel is the plain model named name, generated once.
func plainModel(t *testing.T, name string, model func() []byte) *plain {
	t.Helper()
	plainMu.Lock()
	defer plainMu.Unlock()
	if p, ok := plainDone[name]; ok {
		return p
	}
	d, files, err := generate(model())
	if err != nil {
		t.Fatalf("the plain %s model: %v", name, err)
	}
	p := &plain{d: d, nodes: map[string][]node{}}
	for path, src := range files {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Fatalf("the plain %s model's %s does not parse: %v", name, path, err)
		}
		p.nodes[path] = nodes(fset, file)
	}
	plainDone[name] = p
	return p
}

// node is one node of a file's syntax tree as code, not text: its kind,
// a literal's kind and an operator, without names, values or comments.
type node struct {
	kind string
	pos  token.Position
}

func nodes(fset *token.FileSet, f *ast.File) []node {
	var out []node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return true
		}
		kind := reflect.TypeOf(n).String()
		switch n := n.(type) {
		case *ast.Comment, *ast.CommentGroup:
			return false
		case *ast.BasicLit:
			kind += " " + n.Kind.String()
		case *ast.CallExpr:
			if format, ok := formatOf(n); ok {
				kind += " format " + format // text in a format would be verbs
			}
		case *ast.BinaryExpr:
			kind += " " + n.Op.String()
		case *ast.UnaryExpr:
			kind += " " + n.Op.String()
		case *ast.AssignStmt:
			kind += " " + n.Tok.String()
		case *ast.GenDecl:
			kind += " " + n.Tok.String()
		case *ast.BranchStmt:
			kind += " " + n.Tok.String()
		}
		out = append(out, node{kind, fset.Position(n.Pos())})
		return true
	})
	return out
}

// formatOf is the format string a call to fmt's Errorf, Sprintf or
// Printf passes, as written.
func formatOf(call *ast.CallExpr) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "fmt" || !slices.Contains([]string{"Errorf", "Sprintf", "Printf"}, sel.Sel.Name) {
		return "", false
	}
	if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit.Value, true
	}
	return "", false
}

// firstDiff is where the kinds of a and b first differ, -1 if nowhere.
func firstDiff(a, b []node) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i].kind != b[i].kind {
			return i
		}
	}
	return -1
}

// around is the lines of src about line.
func around(src string, line int) string {
	lines := strings.Split(src, "\n")
	lo, hi := max(line-3, 1), min(line+2, len(lines))
	var b strings.Builder
	for n := lo; n <= hi; n++ {
		fmt.Fprintf(&b, "%5d  %s\n", n, lines[n-1])
	}
	return b.String()
}

func at0(ns []node, i int) string {
	if i < len(ns) {
		return ns[i].kind
	}
	return "the end"
}

// shapeOf is what the import read from a model, without its text: the
// entities' keys, layouts, fields and samples, and the patterns with the
// partitions their specs expect. Two models of one shape generate the
// same code, only named and filled in otherwise.
func shapeOf(d *shape.Design) string {
	var b strings.Builder
	schema := d.Schema.ItemSchema()
	fmt.Fprintf(&b, "types %d billing %q\n", len(d.Schema.Types), d.Schema.Billing)
	for _, ix := range schema.Indexes {
		fmt.Fprintf(&b, "index %s %d %t %t\n", ix.Projection, len(ix.NonKey), ix.PK == "", ix.SK == "")
	}
	type sample struct {
		e    int
		item map[string]types.AttributeValue
	}
	var all []sample
	for i, e := range d.Entities {
		fmt.Fprintf(&b, "entity %d: %d samples\n", i, len(e.Samples))
		for _, v := range e.Vars {
			fmt.Fprintf(&b, " var bound %t\n", v.Field != nil)
		}
		for _, f := range e.Fields {
			fmt.Fprintf(&b, " field %s\n", f.Type)
		}
		for _, k := range e.Keys {
			fmt.Fprintf(&b, " key %s index %t:", k.Type, k.Index == "")
			for _, s := range k.Segs {
				if s.Var != nil {
					fmt.Fprintf(&b, " var %d", slices.Index(e.Vars, s.Var))
				} else {
					fmt.Fprintf(&b, " const %t", s.Const == "")
				}
			}
			b.WriteString("\n")
		}
		for _, it := range e.Samples {
			b.WriteString(" sample:")
			for _, f := range e.Fields {
				b.WriteString(" " + valueShape(it[f.Attr]))
			}
			for _, k := range e.Keys {
				for _, p := range designs.SplitKey(ddbitem.KeyText(it[k.Attr]), d.Sep, len(k.Segs)) {
					fmt.Fprintf(&b, " part %t", p == "")
				}
			}
			b.WriteString("\n")
			all = append(all, sample{i, it})
		}
	}
	for _, p := range d.Patterns {
		fmt.Fprintf(&b, "pattern %s main %t entity %d", p.Op, p.Index == designs.MainTable, slices.Index(d.Entities, p.Entity))
		if p.MCP != nil || p.Why != "" { // a model's own: its arguments and what its spec expects
			fmt.Fprintf(&b, " generated %t params", p.Why == "")
			for _, a := range p.Params {
				b.WriteString(" " + a.Type)
			}
			fmt.Fprintf(&b, " fails %t keys %d items", p.Result.Fails, len(p.Result.Keys))
			for _, it := range slices.Concat(p.Result.Items, p.Result.After) {
				fmt.Fprintf(&b, " %d", len(it))
			}
		}
		b.WriteString(" group")
		for _, e := range p.Group {
			fmt.Fprintf(&b, " %d", slices.Index(d.Entities, e))
		}
		if p.Key == nil {
			b.WriteString("\n")
			continue
		}
		owner := slices.IndexFunc(d.Entities, func(e *shape.Entity) bool { return slices.Contains(e.Keys, p.Key) })
		fmt.Fprintf(&b, " key of %d %d\n", owner, slices.Index(d.Entities[owner].Keys, p.Key))
		sk := d.Schema.SK
		if ix, ok := schema.Index(p.Index); ok {
			sk = ix.SK
		}
		// The partitions its specs expect, each its items in order.
		var values []types.AttributeValue
		for _, x := range all {
			if v, ok := x.item[p.Key.Attr]; ok && slices.Contains(p.Group, d.Entities[x.e]) && !slices.ContainsFunc(values, func(w types.AttributeValue) bool { return ddbitem.EqualValue(v, w) }) {
				values = append(values, v)
			}
		}
		for _, v := range values {
			var in []sample
			for _, x := range all {
				if ddbitem.EqualValue(x.item[p.Key.Attr], v) && (sk == "" || x.item[sk] != nil) {
					in = append(in, x)
				}
			}
			slices.SortStableFunc(in, func(a, b sample) int { return ddbitem.CompareKey(a.item[sk], b.item[sk]) })
			b.WriteString(" partition:")
			for _, x := range in {
				fmt.Fprintf(&b, " %d", x.e)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// valueShape is a stored value's type, whether it is zero (a literal
// leaves it out) and, for a map or a list, its members' shapes.
func valueShape(v types.AttributeValue) string {
	switch v := v.(type) {
	case nil:
		return "absent"
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S %t", v.Value == "")
	case *types.AttributeValueMemberM:
		var members []string
		for _, k := range slices.Sorted(maps.Keys(v.Value)) { // as the literal orders them
			members = append(members, valueShape(v.Value[k]))
		}
		return "M{" + strings.Join(members, ", ") + "}"
	case *types.AttributeValueMemberL:
		var members []string
		for _, m := range v.Value {
			members = append(members, valueShape(m))
		}
		return "L[" + strings.Join(members, ", ") + "]"
	}
	return ddbitem.TypeName(v) + " " + ddbitem.KeyText(v)
}
