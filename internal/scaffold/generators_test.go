package scaffold_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// new-design and import-model write a design package from one template
// set: what both write of a design of one name is the same text, not two
// copies kept alike by hand.
var _ = Describe("one generator of a design package", Label("unit"), func() {
	It("writes the same shared declarations and README frame for a scaffold and an import of one name", func() {
		p, err := scaffold.Prepare(registrySnapshot(), scaffold.Names{Design: "gallery", Entity: "photo"})
		Expect(err).NotTo(HaveOccurred())
		scaffolded := byPath(p.Create)

		model, err := os.ReadFile(filepath.Join(repoRoot, "docs", "models", "gallery.json"))
		Expect(err).NotTo(HaveOccurred())
		m, err := modelfile.Parse(model)
		Expect(err).NotTo(HaveOccurred())
		d, err := shape.Infer("gallery", m.DataModel[0])
		Expect(err).NotTo(HaveOccurred())
		files, err := workbench.Files(d, m.ModelName)
		Expect(err).NotTo(HaveOccurred())
		imported := byPath(files)

		// Declarations that depend on the design's name alone, doc
		// comments included.
		for path, names := range map[string][]string{
			"designs/gallery/gallery_suite_test.go": {"TestGallery", "env"},
			"designs/gallery/schema.go":             {"Table"},
			"designs/gallery/catalog.go":            {"Design doc"},
			"fixtures/gallery.go":                   {"NewGallery doc"},
			"scenarios/gallery.go":                  {"newGalleryDriver", "galleryDriver.Pools doc"},
		} {
			Expect(scaffolded).To(HaveKey(path))
			Expect(imported).To(HaveKey(path))
			ours, theirs := declarations(path, scaffolded[path]), declarations(path, imported[path])
			for _, name := range names {
				Expect(ours).To(HaveKey(name), path)
				Expect(theirs).To(HaveKeyWithValue(name, ours[name]), "%s: %s", path, name)
			}
		}
		heading := regexp.MustCompile(`(?m)^#+ .*$|^Each row is an entry of .*$`)
		readme := "designs/gallery/README.md"
		Expect(heading.FindAllString(imported[readme], -1)).To(Equal(heading.FindAllString(scaffolded[readme], -1)),
			"the README's headings and its sentence about the catalog")
	})
})

func byPath(files []scaffold.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		out[filepath.ToSlash(f.Path)] = string(f.Content)
	}
	return out
}

// declarations maps each top-level declaration of the Go file src to its
// text with its doc comment ("Name", "Recv.Name" for a method), and to its
// doc comment alone ("Name doc").
func declarations(path, src string) map[string]string {
	GinkgoHelper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	Expect(err).NotTo(HaveOccurred())
	text := func(from, to token.Pos) string { return src[fset.Position(from).Offset:fset.Position(to).Offset] }
	out := map[string]string{}
	add := func(name string, doc *ast.CommentGroup, node ast.Node) {
		from := node.Pos()
		if doc != nil {
			from = doc.Pos()
			out[name+" doc"] = doc.Text()
		}
		out[name] = text(from, node.End())
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				name = t.(*ast.Ident).Name + "." + name
			}
			add(name, d.Doc, d)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				var id *ast.Ident
				switch s := s.(type) {
				case *ast.TypeSpec:
					id = s.Name
				case *ast.ValueSpec:
					id = s.Names[0]
				default:
					continue
				}
				if len(d.Specs) == 1 {
					add(id.Name, d.Doc, d)
				}
			}
		}
	}
	return out
}

// hostile is input text that would be code, or break a line, if a
// template printed it unquoted.
const hostile = "x\" + boom() + \"\n}\nfunc init() { boom() } // `|"

var _ = Describe("the shared templates", Label("unit"), func() {
	It("print text from input only quoted in Go, and on one line in the README", func() {
		pkg := func(text string) scaffold.Package {
			return scaffold.Package{Name: "evil", Pascal: "Evil", Summary: text, Facets: [][2]string{{text, text}}, Notes: []string{text},
				Import: &scaffold.Import{Model: text, Table: text, Sep: text, TypeAttribute: text,
					Pools: []scaffold.Pool{{Facet: text, Field: "Items", Type: "Item"}}},
				Schema: scaffold.Schema{PK: text, SK: text, Types: [][2]string{{text, text}}, Billing: text,
					GSIs: []scaffold.Index{{Const: "IndexX", Name: text, PK: text, SK: text, Projection: "INCLUDE", NonKey: []string{text}}}},
				Patterns: []scaffold.Pattern{{Go: "GetItem", ID: text, Name: text, Op: text, OpExpr: "designs.GetItem", Index: "IndexX",
					Where: text, Keys: text, Doc: text}},
				Mix:      []scaffold.Step{{Pattern: "GetItem", Weight: 1, Entity: text, Zipf: true, Field: "Items"}},
				Entities: []scaffold.Entity{{Name: text, Key: text, Attributes: text, Notes: text}},
				Charts:   []scaffold.KeyChart{{Title: text, PK: text, SK: text, Other: true, Rows: []scaffold.KeyRow{{Item: text, PK: text, SK: text, Other: text}}}},
			}
		}
		for _, tmpl := range []string{"schema.go.tmpl", "catalog.go.tmpl", "suite_test.go.tmpl", "fixtures.go.tmpl", "scenarios.go.tmpl"} {
			f, err := scaffold.Render(tmpl, pkg(hostile), "x.go")
			Expect(err).NotTo(HaveOccurred(), tmpl)
			file, err := parser.ParseFile(token.NewFileSet(), tmpl, f.Content, parser.SkipObjectResolution)
			Expect(err).NotTo(HaveOccurred(), tmpl)
			ast.Inspect(file, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					Expect(id.Name).NotTo(BeElementOf("boom", "init"), "%s:\n%s", tmpl, f.Content)
				}
				return true
			})
		}
		plain, err := scaffold.Render("README.md.tmpl", pkg("x"), "README.md")
		Expect(err).NotTo(HaveOccurred())
		evil, err := scaffold.Render("README.md.tmpl", pkg(hostile), "README.md")
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(evil.Content), "\n")).To(Equal(strings.Count(string(plain.Content), "\n")), string(evil.Content))
	})
})
