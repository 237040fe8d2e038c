package scaffold_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// repoRoot is the repository this package lives in: the specs check the
// scaffold against its real registry files and copy it for the walkthrough.
var repoRoot = filepath.Join("..", "..")

var _ = Describe("design names", Label("unit"), func() {
	DescribeTable("CheckName accepts a lower-case Go package name, and says which rule any other breaks",
		func(name, wantRule string) {
			err := scaffold.CheckName(name)
			if wantRule == "" {
				Expect(err).NotTo(HaveOccurred(), "CheckName(%q)", name)
				return
			}
			Expect(err).To(MatchError(scaffold.ErrRefused), "CheckName(%q)", name)
			Expect(err).To(MatchError(ContainSubstring(wantRule)), "CheckName(%q)", name)
		},
		Entry("a plain word", "library", ""),
		Entry("letters then digits", "orders2", ""),
		Entry("the longest allowed", "abcdefghijabcdefghijabcdefghij", ""),
		Entry("nothing", "", "no design name"),
		Entry("a capital", "Library", "lower-case letters and digits"),
		Entry("an underscore", "my_design", "lower-case letters and digits"),
		Entry("a hyphen", "my-design", "lower-case letters and digits"),
		Entry("a leading digit", "2shop", "starting with a letter"),
		Entry("a path", "../shop", "lower-case letters and digits"),
		Entry("a space", "my design", "lower-case letters and digits"),
		Entry("one character too long", "abcdefghijabcdefghijabcdefghijk", "at most 30 characters"),
		Entry("a Go keyword", "func", "Go keyword"),
		Entry("another keyword", "select", "Go keyword"),
		Entry("a predeclared type", "string", "predeclared"),
		Entry("a predeclared function", "len", "predeclared"),
		Entry("a package the generated code imports", "fixtures", "reserved"),
		Entry("the shared model", "designs", "reserved"),
		Entry("the command package name", "main", "reserved"),
		Entry("a folder the go command treats specially", "testdata", "reserved"),
		Entry("a local of the templates", "ctx", "reserved"),
	)

	DescribeTable("CheckEntity accepts a lower-case word that names no fixed identifier",
		func(entity, wantRule string) {
			err := scaffold.CheckEntity(entity)
			if wantRule == "" {
				Expect(err).NotTo(HaveOccurred(), "CheckEntity(%q)", entity)
				return
			}
			Expect(err).To(MatchError(ContainSubstring(wantRule)), "CheckEntity(%q)", entity)
		},
		Entry("a plain word", "book", ""),
		Entry("the default", scaffold.DefaultEntity, ""),
		Entry("nothing", "", "no entity name"),
		Entry("a capital", "Book", "lower-case letters and digits"),
		Entry("a keyword", "type", "Go keyword"),
		Entry("the Table handle", "table", "reserved"),
		Entry("the catalog's file", "catalog", "reserved"),
	)

	DescribeTable("CheckKeyShape accepts a key and a group the templates can use, and says which rule any other breaks",
		func(key, group, wantRule string) {
			n := scaffold.Names{Design: "library", Entity: "book", Key: key, Group: group}
			err := scaffold.CheckKeyShape(n)
			if wantRule == "" {
				Expect(err).NotTo(HaveOccurred(), "CheckKeyShape(%+v)", n)
				return
			}
			Expect(err).To(MatchError(scaffold.ErrRefused), "CheckKeyShape(%+v)", n)
			Expect(err).To(MatchError(ContainSubstring(wantRule)), "CheckKeyShape(%+v)", n)
		},
		Entry("the default shape", scaffold.DefaultKey, scaffold.DefaultGroup, ""),
		Entry("a key of the caller's and another group", "isbn", "shelf", ""),
		Entry("a key of the caller's and no GSI1", "username", scaffold.NoGroup, ""),
		Entry("a key named owner beside another group", "owner", "shelf", ""),
		Entry("a capital in the key", "ISBN", "shelf", "lower-case letters and digits"),
		Entry("a hyphen in the group", "isbn", "shelf-no", "change -group (GROUP=)"),
		Entry("a keyword as the key", "range", "shelf", "Go keyword"),
		Entry("a predeclared identifier as the group", "isbn", "len", "predeclared"),
		Entry("the design's name as the key", "library", "shelf", "hide the package library"),
		Entry("an attribute the entity already has", "name", "shelf", "already has the attribute Name"),
		Entry("a local of the templates as the key", "ctx", "shelf", "reserved"),
		Entry("a package the generated code imports as the group", "isbn", "fmt", "reserved"),
		Entry("the key as the group too", "isbn", "isbn", "is the key as well"),
		Entry("the default key as the group", scaffold.DefaultKey, "id", "is the key as well"),
		Entry("the entity as the group", "isbn", "book", "the entity's own name"),
		Entry("a group whose plural the seed already has", "isbn", "item", "reserved"),
		Entry("a multi-attribute group of two", "isbn", "tenant,region", ""),
		Entry("a multi-attribute group of four, DynamoDB's most", scaffold.DefaultKey, "tenant,region,status,day", ""),
		Entry("owner as one attribute of several", scaffold.DefaultKey, "owner,region", ""),
		Entry("five attributes", "isbn", "tenant,region,status,day,hour", "5 attributes: DynamoDB allows at most 4 in a GSI's partition key"),
		Entry("an empty attribute between commas", "isbn", "tenant,,region", "an empty attribute name"),
		Entry("a trailing comma", "isbn", "tenant,", "an empty attribute name"),
		Entry("none as one attribute of several", "isbn", "tenant,none", "none means no GSI1"),
		Entry("an attribute twice", "isbn", "tenant,region,tenant", `names tenant twice`),
		Entry("the key among the attributes", "isbn", "tenant,isbn", `group "isbn" is the key as well`),
		Entry("the default key among the attributes", scaffold.DefaultKey, "tenant,id", `group "id" is the key as well`),
		Entry("the entity among the attributes", "isbn", "book,region", `group "book" is the entity's own name`),
		Entry("a reserved group among the attributes", "isbn", "tenant,item", `group "item": reserved`),
		Entry("a keyword among the attributes", "isbn", "tenant,range", `group "range": a Go keyword`),
		Entry("a capital among the attributes", "isbn", "tenant,Region", `group "Region": lower-case letters and digits`),
		Entry("the design's name among the attributes", "isbn", "tenant,library", "hide the package library"),
		Entry("an attribute the entity already has among them", "isbn", "tenant,name", "already has the attribute Name"),
	)

	It("Prepare refuses a bad key shape before rendering, and writes nothing", func() {
		root := registrySnapshot()
		before := treeHashes(root, ".")
		_, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book", Key: "isbn", Group: "isbn"})
		Expect(err).To(MatchError(scaffold.ErrRefused))
		Expect(err).To(MatchError(ContainSubstring("pick another -group, or -group none for no GSI1")))
		Expect(treeHashes(root, ".")).To(Equal(before))
	})

	DescribeTable("Prepare renders gofmt-clean files of the key shape given",
		func(key, group string, want, wantNot []string) {
			p, err := scaffold.Prepare(registrySnapshot(), scaffold.Names{Design: "library", Entity: "book", Key: key, Group: group})
			Expect(err).NotTo(HaveOccurred())
			var all strings.Builder
			for _, f := range p.Create {
				all.Write(f.Content)
			}
			for _, w := range want {
				Expect(all.String()).To(ContainSubstring(w))
			}
			for _, w := range wantNot {
				Expect(all.String()).NotTo(ContainSubstring(w))
			}
		},
		Entry("the default: a generated ID, grouped by owner on GSI1", "", "",
			[]string{"ID        string    `dynamodbav:\"BookID\"`", "func OwnerGSI1PK(owner string) string", "id := f.source.ID()", "Owners   []string"},
			[]string{"Isbn", "Shelf"}),
		Entry("a caller's isbn, grouped by shelf", "isbn", "shelf",
			[]string{"Isbn      string    `dynamodbav:\"Isbn\"`", "func ShelfGSI1PK(shelf string) string", "func BookPK(isbn string) string",
				"Shelves  []string", `"shelf": len(d.pool.Shelves)`, "v.Isbn == \"\" || v.Shelf == \"\""},
			[]string{"Owner", "f.source.ID()", "KSUID"}),
		Entry("a generated ID, GSI1 keyed by tenant and region: a multi-attribute GSI on the item's own attributes", "", "tenant,region",
			[]string{`{Name: GSI1, PKs: []string{"Tenant", "Region"}, SK: "BookID"},`,
				"Tenant    string    `dynamodbav:\"Tenant\"`", "Region    string    `dynamodbav:\"Region\"`",
				`v.ID == "" || v.Tenant == "" || v.Region == ""`, "ID, tenant and region are required",
				`Entry("without a tenant"`, `Entry("without a region"`,
				"func (f *Library) TenantRegion() LibraryTenantRegion", "Tenant: tenantRegion.Tenant, Region: tenantRegion.Region",
				"TenantRegions []LibraryTenantRegion", "make([]LibraryTenantRegion, max(n/4, 1))",
				`Entity: "tenant+region"}`, `"tenant+region": len(d.pool.TenantRegions)`, ".Book(d.pool.TenantRegions[key])",
				"partition key `Tenant`, `Region`, sort key `BookID`"},
			[]string{"GSI1PK", "GSI1SK", "gsi1", "Owner", "TENANT#"}),
		Entry("a caller's isbn, GSI1 keyed by four attributes", "isbn", "tenant,region,status,day",
			[]string{`PKs: []string{"Tenant", "Region", "Status", "Day"}, SK: "Isbn"}`, `v.Isbn == "" || v.Tenant == "" || v.Region == "" || v.Status == "" || v.Day == ""`,
				"isbn, tenant, region, status and day are required",
				"TenantRegionStatusDays []LibraryTenantRegionStatusDay"},
			[]string{"GSI1PK", "gsi1"}),
		Entry("a caller's username, no GSI1", "username", scaffold.NoGroup,
			[]string{"func BookPK(username string) string", "fake.Book()", `Entity: "book"},`},
			[]string{"GSI1", "gsi1", "Owner"}),
	)

	DescribeTable("Prepare refuses a name the repository already uses, and writes nothing",
		func(name, wantRule string) {
			root := registrySnapshot()
			before := treeHashes(root, ".")
			_, err := scaffold.Prepare(root, scaffold.Names{Design: name, Entity: scaffold.DefaultEntity})
			Expect(err).To(MatchError(scaffold.ErrRefused), "Prepare(%q)", name)
			Expect(err).To(MatchError(ContainSubstring(wantRule)), "Prepare(%q)", name)
			Expect(treeHashes(root, ".")).To(Equal(before))
		},
		Entry("an existing design", "invoicing", "designs/invoicing already exists"),
		Entry("the designs list's package", "all", "reserved"),
		Entry("a name whose generator type fixtures already declares", "item", "fixtures.Item is already declared"),
		Entry("a name whose fixtures file exists", "batch", "fixtures/batch.go already exists"),
	)

	It("PrepareFiles reads what a generated file declares from the file itself, and refuses a name a shared package has", func() {
		root := registrySnapshot()
		before := treeHashes(root, ".")
		files := []scaffold.File{
			{Path: "designs/zed/schema.go", Content: []byte("package zed\n")},
			{Path: "fixtures/zed.go", Content: []byte("package fixtures\n\ntype Zed struct{}\n\nfunc (Zed) Loader() {}\n\nvar ZedCount, Loader = 1, 2\n")},
		}
		_, err := scaffold.PrepareFiles(root, "zed", files)
		Expect(err).To(MatchError(scaffold.ErrRefused))
		Expect(err).To(MatchError(ContainSubstring("fixtures.Loader is already declared (in fixtures/loader.go)")), "a method named Loader does not collide; the variable does")
		Expect(treeHashes(root, ".")).To(Equal(before))

		files[1].Content = []byte("package fixtures\n\ntype Zed struct{}\n\nfunc (Zed) Loader() {}\n\nvar _ = Zed{}\n\nfunc init() {}\n")
		_, err = scaffold.PrepareFiles(root, "zed", files)
		Expect(err).NotTo(HaveOccurred(), "a method, a blank name and init may repeat what the package has (fixtures declares var _ designs.DB)")
	})

	It("renders gofmt-clean files for a free name, and wires each registry with one line", func() {
		root := registrySnapshot()
		p, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book"})
		Expect(err).NotTo(HaveOccurred())
		created, changed := p.Paths()
		Expect(created).To(ConsistOf(
			"designs/library/README.md", "designs/library/schema.go", "designs/library/catalog.go",
			"designs/library/book.go", "designs/library/library_suite_test.go", "designs/library/book_test.go",
			"fixtures/library.go", "scenarios/library.go"))
		Expect(changed).To(Equal([]string{"designs/all/all.go", "scenarios/scenarios.go"}))
		Expect(p.Wired).To(Equal([]string{"library.Design", "LibrarySteady"}))
		for _, f := range p.Change {
			old, err := os.ReadFile(filepath.Join(root, f.Path))
			Expect(err).NotTo(HaveOccurred())
			Expect(addedLines(string(old), string(f.Content))).To(BeNumerically("<=", 2), f.Path) // the element and, in all.go, its import
		}
	})

	It("leaves alone a design folder another run made since Prepare, when Write then fails", func() {
		root := registrySnapshot()
		p, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book"})
		Expect(err).NotTo(HaveOccurred())
		theirs := filepath.Join(root, "designs", "library", "theirs.go")
		Expect(os.MkdirAll(filepath.Dir(theirs), 0o755)).To(Succeed())
		Expect(os.WriteFile(theirs, []byte("package library\n"), 0o644)).To(Succeed())
		before := treeHashes(root, ".")
		Expect(p.Write()).NotTo(Succeed(), "the design folder is taken")
		Expect(treeHashes(root, ".")).To(Equal(before), "the other run's folder and the registries as they were")
	})

	It("takes back every file it wrote when the last registry file cannot be replaced", func() {
		root := registrySnapshot()
		p, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book"})
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Change[len(p.Change)-1].Path).To(Equal("scenarios/scenarios.go"))
		// A folder where the scenario registry was: renaming a file over it
		// fails, after the design, its fixtures, its scenario and
		// designs/all/all.go are written.
		last := filepath.Join(root, "scenarios", "scenarios.go")
		Expect(os.Remove(last)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(last, "in-the-way"), 0o755)).To(Succeed())
		before := treeHashes(root, ".")
		Expect(p.Write()).NotTo(Succeed())
		Expect(treeHashes(root, ".")).To(Equal(before), "no design folder, fixtures or scenario file left, and all.go as it was")
		Expect(filepath.Join(root, "designs", "library")).NotTo(BeADirectory())
	})
})

// registrySnapshot copies what Prepare reads of the repository (go.mod,
// the design folders, the fixtures and scenarios sources, the two registry
// files) into a temporary root, so that "writes nothing" is checked on a
// tree no concurrent build or edit touches.
func registrySnapshot() string {
	GinkgoHelper()
	root := GinkgoT().TempDir()
	copyFile := func(rel string) {
		b, err := os.ReadFile(filepath.Join(repoRoot, rel))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, rel), b, 0o644)).To(Succeed())
	}
	copyFile("go.mod")
	copyFile("designs/all/all.go") // scenarios.go comes with its folder
	for _, dir := range []string{"designs", "fixtures", "scenarios"} {
		entries, err := os.ReadDir(filepath.Join(repoRoot, dir))
		Expect(err).NotTo(HaveOccurred())
		for _, e := range entries {
			switch {
			case e.IsDir():
				Expect(os.MkdirAll(filepath.Join(root, dir, e.Name()), 0o755)).To(Succeed())
			case strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go"):
				copyFile(filepath.Join(dir, e.Name()))
			}
		}
	}
	return root
}

var _ = Describe("adding a list element", Label("unit"), func() {
	DescribeTable("keeps the file's layout and imports",
		func(src, want string) {
			got, err := scaffold.AddElement([]byte(src), "All", "x.Design", "example.com/x")
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want))
		},
		Entry("one element a line, with comments",
			"package p\n\nimport (\n\t\"example.com/a\"\n)\n\nvar All = []int{\n\ta.Design, // first\n}\n",
			"package p\n\nimport (\n\t\"example.com/a\"\n\t\"example.com/x\"\n)\n\nvar All = []int{\n\ta.Design, // first\n\tx.Design,\n}\n"),
		Entry("a one-line list and a one-line import",
			"package p\n\nimport \"example.com/a\"\n\nvar All = []int{a.Design}\n",
			"package p\n\nimport \"example.com/a\"\nimport \"example.com/x\"\n\nvar All = []int{a.Design, x.Design}\n"),
		Entry("no imports yet, an empty list",
			"package p\n\nvar All = []int{}\n",
			"package p\n\nimport \"example.com/x\"\n\nvar All = []int{x.Design}\n"),
	)

	It("refuses an element the list already has", func() {
		_, err := scaffold.AddElement([]byte("package p\n\nvar All = []int{\n\tx.Design,\n}\n"), "All", "x.Design", "")
		Expect(err).To(MatchError(ContainSubstring("already lists x.Design")))
	})
})
