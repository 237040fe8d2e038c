package workbench

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// design is a design's shape as the generator writes it: its methods
// render the files.
type design struct{ *shape.Design }

// Files renders the package of design sd, its fixtures and its scenario.
func Files(sd *shape.Design, model string) ([]scaffold.File, error) {
	d := design{sd}
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

func (d design) pascal() string { return shape.GoName(d.Name) }

// generatedLocals are the locals and parameters of the generated
// fixtures, scenario and specs, which refer to the design's package by its
// name: a design of one of these names would be hidden by them.
var generatedLocals = []string{"ctx", "d", "db", "e", "env", "err", "f", "first", "i", "item", "k", "key", "l", "loaded",
	"n", "next", "p", "page", "pool", "progress", "put", "s", "seed", "t", "table", "v", "want"}

// vars are a pattern's parameters: the variables of the item's table key
// for a Get, of the partition key for a Query.
func (d design) vars(p *shape.Pattern) []*shape.Var {
	if p.Entity != nil {
		return shape.KeyVars(p.Entity.Key(d.Schema.PK), p.Entity.Key(d.Schema.SK))
	}
	return shape.KeyVars(partition(p)...)
}

// partition is the layouts of a query's partition key attributes.
func partition(p *shape.Pattern) []*shape.KeyUse {
	if len(p.Keys) > 0 {
		return p.Keys
	}
	return []*shape.KeyUse{p.Key}
}

// expr is the Go expression that builds layout k from the variables, each
// written by name(v).
func (d design) expr(k *shape.KeyUse, name func(*shape.Var) string) string {
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
func builder(e *shape.Entity, k *shape.KeyUse) string { return e.Go + shape.GoName(k.Attr) }

// member is the AttributeValue literal of a key of type t holding text x.
func member(t, x string) string {
	if t == "N" {
		return "&types.AttributeValueMemberN{Value: " + x + "}"
	}
	return "&types.AttributeValueMemberS{Value: " + x + "}"
}
