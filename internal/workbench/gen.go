package workbench

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// Files renders the design package, its fixtures and its scenario.
func (d *Design) Files(model string) ([]scaffold.File, error) {
	if err := scaffold.CheckName(d.Name); err != nil { // written bare, as the package clause and in paths
		return nil, err
	}
	if slices.Contains(generatedLocals, d.Name) {
		return nil, fmt.Errorf("%w: the design name %s is a local name of the generated fixtures, scenario or specs, which would hide the package: name the design otherwise (-name)", scaffold.ErrRefused, d.Name)
	}
	dir := filepath.Join("designs", d.Name)
	// The files every design has come from the templates new-design
	// writes them from; a file only an import has is code, written
	// through the same Source. The data is made per file, so the README,
	// last, lists the notes the specs added.
	shared := func(tmpl string) func(*scaffold.Source) {
		return func(s *scaffold.Source) { s.Section(tmpl, d.pkg(model)) }
	}
	var out []scaffold.File
	for _, g := range []struct {
		path string
		gen  func(*scaffold.Source)
	}{
		{filepath.Join(dir, "schema.go"), shared("schema.go.tmpl")},
		{filepath.Join(dir, "entities.go"), d.genEntities},
		{filepath.Join(dir, "catalog.go"), shared("catalog.go.tmpl")},
		{filepath.Join(dir, "patterns.go"), d.genPatterns},
		{filepath.Join(dir, "samples.go"), d.genSamples},
		{filepath.Join(dir, d.Name+"_suite_test.go"), shared("suite_test.go.tmpl")},
		{filepath.Join(dir, "patterns_test.go"), d.genSpecs},
		{filepath.Join(dir, "model_patterns_test.go"), shared("model_patterns_test.go.tmpl")},
		{filepath.Join("fixtures", d.Name+".go"), shared("fixtures.go.tmpl")},
		{filepath.Join("scenarios", d.Name+".go"), shared("scenarios.go.tmpl")},
		{filepath.Join(dir, "README.md"), shared("README.md.tmpl")},
	} {
		if strings.HasSuffix(g.path, "model_patterns_test.go") && !d.hasModelPatterns() {
			continue
		}
		var s scaffold.Source
		g.gen(&s)
		f, err := s.File(g.path)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func (d *Design) pascal() string { return goName(d.Name) }

// generatedLocals are the locals and parameters of the generated
// fixtures, scenario and specs, which refer to the design's package by its
// name: a design of one of these names would be hidden by them.
var generatedLocals = []string{"ctx", "d", "db", "e", "env", "err", "f", "first", "i", "item", "k", "key", "l", "loaded",
	"n", "next", "p", "page", "pool", "progress", "put", "s", "seed", "t", "table", "v", "want"}

// paramTaken are the names a parameter cannot take: the generated
// functions' locals and named results, the package's functions they call,
// and the packages they use.
var paramTaken = []string{"ctx", "after", "t", "v", "av", "err", "out", "key", "items", "next", "page", "ok", "e", "it", "decode", "decoders",
	"string", "any", "aws", "attributevalue", "bytes", "context", "designs", "dynamodb", "expression", "fmt", "slices", "strings", "types"}

// param is a variable's name as a function parameter.
func param(v *Var) string {
	r := []rune(v.Go)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) {
		i--
	}
	for j := range i {
		r[j] = unicode.ToLower(r[j])
	}
	out := string(r)
	if token.IsKeyword(out) || slices.Contains(paramTaken, out) {
		out += "Part"
	}
	return out
}

// vars are a pattern's parameters: the variables of the item's table key
// for a Get, of the partition key for a Query.
func (d *Design) vars(p *Pattern) []*Var {
	if p.Entity != nil {
		return keyVars(p.Entity.key(d.Schema.PK), p.Entity.key(d.Schema.SK))
	}
	return keyVars(p.partition()...)
}

// partition is the layouts of a query's partition key attributes.
func (p *Pattern) partition() []*KeyUse {
	if len(p.Keys) > 0 {
		return p.Keys
	}
	return []*KeyUse{p.Key}
}

// keyVars lists the distinct variables of the given layouts, in order.
func keyVars(ks ...*KeyUse) []*Var {
	var out []*Var
	for _, k := range ks {
		if k == nil {
			continue
		}
		for _, s := range k.Segs {
			if s.Var != nil && !slices.Contains(out, s.Var) {
				out = append(out, s.Var)
			}
		}
	}
	return out
}

// expr is the Go expression that builds layout k from the variables, each
// written by name(v).
func (d *Design) expr(k *KeyUse, name func(*Var) string) string {
	var parts []string
	for i, s := range k.Segs {
		if i > 0 {
			parts = append(parts, strconv.Quote(d.Sep))
		}
		if s.Var != nil {
			parts = append(parts, name(s.Var))
		} else if s.Const != "" {
			parts = append(parts, strconv.Quote(s.Const))
		}
	}
	// Join adjacent literals for readability.
	var merged []string
	for _, p := range parts {
		if n := len(merged); n > 0 && strings.HasPrefix(p, `"`) && strings.HasPrefix(merged[n-1], `"`) {
			a, _ := strconv.Unquote(merged[n-1])
			b, _ := strconv.Unquote(p)
			merged[n-1] = strconv.Quote(a + b)
			continue
		}
		merged = append(merged, p)
	}
	if len(merged) == 0 {
		return `""`
	}
	return strings.Join(merged, " + ")
}

// builder is the name of entity e's builder of key k: CustomerPK.
func (e *Entity) builder(k *KeyUse) string { return e.Go + goName(k.Attr) }

// member is the AttributeValue literal of a key of type t holding text x.
func member(t, x string) string {
	if t == "N" {
		return "&types.AttributeValueMemberN{Value: " + x + "}"
	}
	return "&types.AttributeValueMemberS{Value: " + x + "}"
}

// Layout writes the key's layout as people read it, its parts joined by
// sep: "USER#<UserID>".
func (k *KeyUse) Layout(sep string) string {
	return k.shape(sep, func(v *Var) string { return "<" + v.Go + ">" })
}

// shape is the layout with each variable segment written by v.
func (k *KeyUse) shape(sep string, v func(*Var) string) string {
	var parts []string
	for _, s := range k.Segs {
		if s.Var != nil {
			parts = append(parts, v(s.Var))
		} else {
			parts = append(parts, s.Const)
		}
	}
	return strings.Join(parts, sep)
}

func indexConst(name string) string { return "Index" + goName(name) }
