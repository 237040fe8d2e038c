package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A retired name is one that meant two things, or the wrong thing, and was
// renamed: architecture.md's "Names" glossary says what each name means
// now. A word is retired in every exported identifier it is a word of
// ("Unserved" in UnservedSlot too); a declaration (Name, Type.Field or
// Type.Method) is retired in one package only, where the word lives on in
// another meaning.
type retired struct {
	pkg  string // the package's folder; empty: a word, retired everywhere
	name string
	now  string // what it is called now
}

var retiredNames = []retired{
	{"", "Emulation", "Limits"},
	{"", "Unserved", "Denied"},
	// Seed is what fills a table (workload.Driver.Seed); a random seed is
	// RandomSeed.
	{"bench/engine", "Seed", "RandomSeed"},
	{"bench/engine", "DefaultSeed", "DefaultRandomSeed"},
	{"bench/engine", "Outcome.Seed", "Outcome.RandomSeed"},
	{"internal/lint", "Seed", "RandomSeed"},
	{"internal/lint", "DefaultSeed", "DefaultRandomSeed"},
	{"bench/cost", "Plan.Seed", "Plan.RandomSeed"},
	{"bench/cost", "DefaultSeed", "DefaultRandomSeed"},
	// Table is a DynamoDB table, however a package holds it.
	{"internal/keytab", "Table", "Numbering"},
	// Model is the capacity model (capacity.Model).
	{"internal/workbench", "Model", "ModelFile"},
	// HotShare is a partition's heat (throughput.HotShare).
	{"internal/lint", "HotShare", "MaxKeyShare"},
	// meter is the instrumented client (bench/meter).
	{"bench/engine", "Meter", "Measurer"},
	{"bench/engine", "Metered", "Measured"},
}

// retiredPackages are package names retired, with what they are now.
var retiredPackages = map[string]string{
	// It builds clients for real DynamoDB too: DynamoDB Local is one test
	// bed of several.
	"ddblocal": "testbed",
}

// TestRetiredNamesStayRetired fails when a retired name comes back as an
// exported identifier or a package name in the module's Go code, tests
// included.
func TestRetiredNamesStayRetired(t *testing.T) {
	goFiles(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		name := strings.TrimSuffix(f.Name.Name, "_test")
		if now, ok := retiredPackages[name]; ok {
			t.Errorf("%s: package %s, a retired name: call it %s (docs/architecture.md, Names)", fset.Position(f.Package), name, now)
		}
	})
	decls := exportedDecls(t)
	if len(decls) == 0 {
		t.Fatal("no exported declaration found: the walk finds no Go code")
	}
	for _, d := range decls {
		for _, r := range retiredNames {
			if r.pkg == "" && hasWord(d.last(), r.name) || r.pkg == d.pkg && r.name == d.name {
				t.Errorf("%s: %s declares %s, a retired name: call it %s (docs/architecture.md, Names)", d.at, d.pkg, d.name, r.now)
			}
		}
	}
}

// camelWord ends a word: the identifier's end, or an upper-case letter or
// a digit.
var camelWord = regexp.MustCompile(`^($|[A-Z0-9_])`)

// hasWord reports whether word is a word of the identifier id.
func hasWord(id, word string) bool {
	for i := 0; ; {
		j := strings.Index(id[i:], word)
		if j < 0 {
			return false
		}
		i += j + len(word)
		if camelWord.MatchString(id[i:]) {
			return true
		}
	}
}

// decl is an exported declaration: its package folder, its name (Name,
// Type.Field or Type.Method) and where it is.
type decl struct{ pkg, name, at string }

func (d decl) last() string { return d.name[strings.LastIndex(d.name, ".")+1:] }

// exportedDecls lists every exported top-level declaration of the module's
// Go files, with the exported fields and methods of its types.
func exportedDecls(t *testing.T) []decl {
	t.Helper()
	var out []decl
	goFiles(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		add := func(name string, pos token.Pos) {
			if ast.IsExported(name[strings.LastIndex(name, ".")+1:]) {
				out = append(out, decl{pkg, name, fset.Position(pos).String()})
			}
		}
		for _, dl := range f.Decls {
			switch dl := dl.(type) {
			case *ast.FuncDecl:
				if dl.Recv == nil {
					add(dl.Name.Name, dl.Pos())
				} else if r := recvName(dl.Recv.List[0].Type); ast.IsExported(r) {
					add(r+"."+dl.Name.Name, dl.Pos())
				}
			case *ast.GenDecl:
				for _, s := range dl.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						add(s.Name.Name, s.Pos())
						members(s.Name.Name, s.Type, add)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name, n.Pos())
						}
					}
				}
			}
		}
	})
	return out
}

// goFiles parses every Go file of the module, tests included, and hands
// each to f with its package's folder.
func goFiles(t *testing.T, f func(pkg string, fset *token.FileSet, file *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "reports" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		f(filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../"))), fset, file)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOptionsHaveNoWithPrefix holds CONTRIBUTING.md's options rule: an
// exported function is named for what it sets or does, never With…, but
// for one that returns a context carrying a value, as package context's
// own do (designs.WithPattern).
func TestOptionsHaveNoWithPrefix(t *testing.T) {
	with := regexp.MustCompile(`^With[A-Z]`)
	checked := 0
	goFiles(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		for _, dl := range f.Decls {
			fn, ok := dl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			checked++
			if with.MatchString(fn.Name.Name) && !returnsContext(fn) {
				t.Errorf("%s: %s.%s: name it for what it sets or does, without With (CONTRIBUTING.md, Options)", fset.Position(fn.Pos()), pkg, fn.Name.Name)
			}
		}
	})
	if checked == 0 {
		t.Fatal("no exported function found: the walk finds no Go code")
	}
}

// returnsContext reports whether fn returns a context.Context alone.
func returnsContext(fn *ast.FuncDecl) bool {
	r := fn.Type.Results
	if r == nil || len(r.List) != 1 {
		return false
	}
	sel, ok := r.List[0].Type.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "context" && sel.Sel.Name == "Context"
}

// members adds the named fields of a struct type and the methods of an
// interface type, nested structs' fields included.
func members(owner string, typ ast.Expr, add func(string, token.Pos)) {
	var fields *ast.FieldList
	switch typ := typ.(type) {
	case *ast.StructType:
		fields = typ.Fields
	case *ast.InterfaceType:
		fields = typ.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			add(owner+"."+n.Name, n.Pos())
			members(owner+"."+n.Name, f.Type, add)
		}
	}
}

// recvName is the type name of a method's receiver.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
