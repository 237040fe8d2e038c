package docs

import (
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A retired key is a JSON name a type of the report's files wrote for one
// concept while another of its names meant another: renamed, it stays
// retired in that type, but for the field that reads it from older files
// (Former).
type retiredKey struct {
	pkg, typ, key string
	now           string // the key it is written as now
}

var retiredKeys = []retiredKey{
	// The limits' scale is limits_scale in every section of metrics.json.
	{"bench/emulate", "Throttling", "scale", "limits_scale"},
	// limits is the limits a run is under; the DynamoDB figures the
	// capacity model applies are its rules.
	{"bench/capacity", "Report", "limits", "rules"},
}

// TestRetiredKeysStayRetired fails when a type writes a retired JSON key
// again.
func TestRetiredKeysStayRetired(t *testing.T) {
	found := map[retiredKey]bool{}
	goFiles(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, r := range retiredKeys {
				if r.pkg != pkg || r.typ != ts.Name.Name {
					continue
				}
				found[r] = true
				for _, fl := range st.Fields.List {
					if fl.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fl.Tag.Value)
					name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
					if name == r.key {
						t.Errorf("%s: %s.%s is written as %q, a retired key: write it as %q (docs/architecture.md, Names)", fset.Position(fl.Pos()), pkg, r.typ, r.key, r.now)
					}
				}
			}
			return true
		})
	})
	for _, r := range retiredKeys {
		if !found[r] {
			t.Errorf("%s.%s not found: keep retiredKeys up to date", r.pkg, r.typ)
		}
	}
}
