package scaffold

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// MaxNameLen bounds a design name: it becomes part of every table name
// (ddbh-<name>-p<N>-<unixnano>) and of scenario names, which people type.
const MaxNameLen = 30

// nameRule is the shape of a design or entity name: a Go package name as
// Go's own style wants it (lower case, no underscores), which also makes a
// valid DynamoDB table name part, file name and Ginkgo label.
var nameRule = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// reservedDesign are names the generated code cannot take: the packages it
// imports (a design named "time" would shadow the time package in its own
// suite), the harness's packages and folders, and the identifiers the
// templates use for locals and suite variables, which the package name
// would shadow or be shadowed by.
var reservedDesign = []string{
	// imported by the generated files, or harness packages
	"all", "attributevalue", "aws", "bench", "context", "ddbtest", "designs", "dynamodb",
	"errors", "expression", "fixtures", "fmt", "ginkgo", "gomega", "rand", "scenarios", "testing", "time",
	"types", "vegeta", "verify", "scaffold", "report", "capacity", "testbed",
	// folder names with a meaning to the go command, and the command package
	"internal", "testdata", "vendor", "main",
	// locals, parameters and suite variables of the templates
	"change", "ctx", "d", "db", "env", "err", "f", "fake", "i", "id", "key", "l", "n", "now", "owner",
	"p", "pool", "progress", "r", "racers", "s", "seed", "t", "table", "v", "winner",
}

// reservedEntity are entity names whose identifiers or file would collide
// with the design package's fixed ones (Table, Schema, Design, catalog.go)
// or with the generator's Seed method.
var reservedEntity = []string{"table", "schema", "design", "catalog", "seed", "owner"}

// CheckName refuses a design name that is not a usable, free Go package
// name; the message names the rule broken. It does not look at the
// repository: Prepare does that.
func CheckName(name string) error {
	if err := checkWord(name, "design name", "ddbharness new-design library", "its Go package name, part of every table name"); err != nil {
		return err
	}
	switch {
	case types.Universe.Lookup(name) != nil:
		return refuse("design name %q: a predeclared Go identifier (like string, len, nil) would be shadowed by the package name", name)
	case slices.Contains(reservedDesign, name):
		return refuse("design name %q: reserved: the generated code imports or declares %q (reserved: %s)", name, name, strings.Join(reservedDesign, ", "))
	}
	return nil
}

// CheckEntity refuses an entity name the templates cannot use.
func CheckEntity(entity string) error {
	if err := checkWord(entity, "entity name", "-entity "+DefaultEntity, "the example's Go type and file (book: type Book, book.go)"); err != nil {
		return err
	}
	if slices.Contains(reservedEntity, entity) {
		return refuse("entity name %q: reserved: the design package already declares %s (reserved: %s)", entity, pascal(entity), strings.Join(reservedEntity, ", "))
	}
	return nil
}

// checkWord refuses a name that is not a lower-case Go word of at most
// MaxNameLen characters; the message says what the name is, how to give
// one, and what it becomes.
func checkWord(name, what, give, becomes string) error {
	switch {
	case name == "":
		return refuse("no %s: give one, e.g. %s", what, give)
	case !nameRule.MatchString(name):
		return refuse("%s %q: lower-case letters and digits, starting with a letter: it becomes %s", what, name, becomes)
	case len(name) > MaxNameLen:
		return refuse("%s %q: at most %d characters: it becomes %s", what, name, MaxNameLen, becomes)
	case token.IsKeyword(name):
		return refuse("%s %q: a Go keyword cannot be %s", what, name, becomes)
	}
	return nil
}

// sharedPackages are the package folders every design adds a file to:
// fixtures and scenarios are single packages, so a design's file there
// must not declare what another design's file does.
var sharedPackages = []string{"fixtures", "scenarios"}

// checkCollisions refuses a design whose new files in a shared package
// declare a top-level identifier that package already has, e.g. a design
// "loader" against fixtures.Loader. The identifiers are read from the new
// files themselves, so the scaffold's templates and the import's generator
// are checked alike.
func checkCollisions(root string, n Names, files []File) error {
	for _, dir := range sharedPackages {
		var taken map[string]string
		for _, f := range files {
			if filepath.Dir(f.Path) != dir || !strings.HasSuffix(f.Path, ".go") {
				continue
			}
			if taken == nil {
				var err error
				if taken, err = topLevel(filepath.Join(root, dir), dir); err != nil {
					return err
				}
			}
			ids, err := declared(f.Path, f.Content, dir)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
			for _, id := range ids {
				if where, ok := taken[id]; ok {
					return refuse("design name %q: %s.%s is already declared (in %s/%s); the %s design's file would declare it too. Pick another name",
						n.Design, dir, id, dir, where, n.Design)
				}
			}
		}
	}
	return nil
}

// topLevel maps each top-level identifier of package pkg in dir to the
// file that declares it.
func topLevel(dir, pkg string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	taken := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		ids, err := declared(filepath.Join(dir, e.Name()), nil, pkg)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			taken[id] = e.Name()
		}
	}
	return taken, nil
}

// declared lists the top-level identifiers of the Go file at path, or of
// src when given, if it belongs to package pkg: an external test package's
// names do not collide, nor do methods, init functions and blank names,
// which a package may declare many times.
func declared(path string, src []byte, pkg string) ([]string, error) {
	var from any
	if src != nil {
		from = src
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, from, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != pkg {
		return nil, err
	}
	var ids []string
	add := func(id *ast.Ident) {
		if id.Name != "_" && id.Name != "init" {
			ids = append(ids, id.Name)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						add(id)
					}
				}
			}
		}
	}
	return ids, nil
}

// entityFields are the example entity's attributes beside its key and
// group, which neither may take; groupTaken are group names whose plural
// would name a field the fixtures' seed already has (Entities, Items), or
// that read as the default key.
var (
	entityFields = []string{"name", "createdat"}
	groupTaken   = []string{"entity", "item", "id"}
)

// CheckKeyShape refuses a key or group attribute the templates cannot use
// with n's names (whose Key and Group are already defaulted); the message
// names the problem and the flag to change. A group of 2 to
// designs.MaxKeyAttributes names separated by commas is a multi-attribute
// GSI1, each name checked as a single group is.
func CheckKeyShape(n Names) error {
	if n.Key != DefaultKey {
		if err := checkAttr("key", "-key (KEY=)", n.Key, n); err != nil {
			return err
		}
	}
	if n.Group == NoGroup {
		return nil
	}
	groups := n.groups()
	if len(groups) > 1 {
		if err := checkTuple(n.Group, groups); err != nil {
			return err
		}
	}
	for i, g := range groups {
		if err := checkGroup(g, n); err != nil {
			return err
		}
		if slices.Contains(groups[:i], g) {
			return refuse("group %q names %s twice: each attribute of GSI1's key is named once; change -group (GROUP=)", n.Group, g)
		}
	}
	return nil
}

// checkTuple refuses a multi-attribute group's list itself: a name left
// empty, none (which means no GSI1), or more attributes than a GSI's
// partition key may have.
func checkTuple(group string, groups []string) error {
	switch {
	case slices.Contains(groups, ""):
		return refuse("group %q: an empty attribute name: give 2 to %d lower-case names separated by commas and nothing else, e.g. -group tenant,region", group, designs.MaxKeyAttributes)
	case slices.Contains(groups, NoGroup):
		return refuse("group %q: %s means no GSI1, so it cannot be one of its key's attributes: give -group %s alone, or other names", group, NoGroup, NoGroup)
	case len(groups) > designs.MaxKeyAttributes:
		return refuse("group %q: %d attributes: DynamoDB allows at most %d in a GSI's partition key; give 2 to %d, e.g. -group tenant,region", group, len(groups), designs.MaxKeyAttributes, designs.MaxKeyAttributes)
	}
	return nil
}

// checkGroup refuses one attribute GSI1 groups the entity by.
func checkGroup(g string, n Names) error {
	if g == n.Key {
		return refuse("group %q is the key as well: GSI1 groups %s items by another attribute than the one identifying each (pick another -group, or -group %s for no GSI1)", g, n.Entity, NoGroup)
	}
	if err := checkAttr("group", "-group (GROUP=)", g, n); err != nil {
		return err
	}
	switch {
	case g == n.Entity:
		return refuse("group %q is the entity's own name: the scenario's pools are named by both (pick another -group, or -group %s for no GSI1)", g, NoGroup)
	case slices.Contains(groupTaken, g):
		return refuse("group %q: reserved: the fixtures' seed or the default key uses it (reserved: %s); pick another -group", g, strings.Join(groupTaken, ", "))
	}
	return nil
}

// checkAttr refuses an attribute name (a key or group, which becomes a Go
// field, parameter and local) the generated code cannot take.
func checkAttr(what, flag, name string, n Names) error {
	if err := checkWord(name, what, flag, "a Go field, parameter and local (isbn: field Isbn); change "+flag); err != nil {
		return err
	}
	switch {
	case types.Universe.Lookup(name) != nil:
		return refuse("%s %q: a predeclared Go identifier (like string, len, nil) would be shadowed by the parameter it becomes; change %s", what, name, flag)
	case name == n.Design:
		return refuse("%s %q is the design's name: as a local it would hide the package %s; change %s", what, name, n.Design, flag)
	case slices.Contains(entityFields, name):
		return refuse("%s %q: the %s already has the attribute %s; change %s", what, name, n.Entity, pascal(name), flag)
	case name != DefaultGroup && slices.Contains(reservedDesign, name):
		return refuse("%s %q: reserved: the generated code imports or declares %q (reserved: %s); change %s", what, name, name, strings.Join(reservedDesign, ", "), flag)
	}
	return nil
}
