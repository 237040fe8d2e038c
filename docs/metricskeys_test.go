package docs

import (
	"go/ast"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// metricsTypes are the types of bench/report that metrics.json writes
// whole: every key of theirs has its line in docs/bench.md.
var metricsTypes = []string{"Metrics", "MetricsPattern", "MetricsFailure", "MetricsSaturation"}

// TestEveryMetricsKeyIsExplained fails when metrics.json writes a key that
// bench.md's "metrics.json, key by key" does not name.
func TestEveryMetricsKeyIsExplained(t *testing.T) {
	b, err := os.ReadFile("bench.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "### metrics.json, key by key")
	if !ok {
		t.Fatal(`bench.md has no section "metrics.json, key by key"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	found := map[string]bool{}
	goFiles(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		if pkg != "bench/report" {
			return
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !slices.Contains(metricsTypes, ts.Name.Name) {
					continue
				}
				found[ts.Name.Name] = true
				for _, fl := range ts.Type.(*ast.StructType).Fields.List {
					if fl.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fl.Tag.Value)
					key, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
					if key != "" && key != "-" && !strings.Contains(section, "`"+key+"`") {
						t.Errorf("%s: metrics.json's key %q (%s) is not in bench.md's \"metrics.json, key by key\": add it to the table", fset.Position(fl.Pos()), key, ts.Name.Name)
					}
				}
			}
		}
	})
	for _, n := range metricsTypes {
		if !found[n] {
			t.Errorf("bench/report.%s not found: keep metricsTypes up to date", n)
		}
	}
}
