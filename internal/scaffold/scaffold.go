package scaffold

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Module is the import path of the repository the scaffold writes into; a
// root whose go.mod names another module is refused, since the generated
// imports would not resolve there.
const Module = "github.com/ddbharness/ddbharness"

// DefaultEntity names the example entity when none is given.
const DefaultEntity = "record"

// The example entity's key shape when none is given: a generated KSUID
// identifies it (DefaultKey), and GSI1 groups it by owner (DefaultGroup).
// NoGroup as the group leaves GSI1 out; several names separated by commas
// (tenant,region) make GSI1 a multi-attribute GSI keyed by all of them.
const (
	DefaultKey   = "id"
	DefaultGroup = "owner"
	NoGroup      = "none"
)

// templates are the one template set of a design package (render.go).
//
//go:embed templates/*.tmpl
var templates embed.FS

// Names are the names a scaffold derives everything from.
type Names struct {
	Design string // package name and design name: "library"
	Entity string // the example entity, lower case: "book"
	Key    string // the attribute identifying the entity: "isbn"; "" or DefaultKey: a generated KSUID
	Group  string // the attribute GSI1 groups the entity by: "shelf"; "tenant,region": GSI1's partition key is both; "": DefaultGroup; NoGroup: no GSI1
}

// groups are the attributes GSI1 groups the entity by, in its key's order.
func (n Names) groups() []string { return strings.Split(n.Group, ",") }

// withDefaults fills in the key shape left unset.
func (n Names) withDefaults() Names {
	if n.Key == "" {
		n.Key = DefaultKey
	}
	if n.Group == "" {
		n.Group = DefaultGroup
	}
	return n
}

// data is what the templates see: the package as every generator
// describes it, and the example entity's names only new-design has.
type data struct {
	Package
	Entity, EntityPascal, EntityUpper string
	EntityLower                       string
	// The key: Generated when it is a KSUID the fixtures make; Key names
	// parameters and locals, KeyField the Go field, KeyAttr the stored
	// attribute, KeyProse what sentences call it (with KeyA, "a" or "an").
	Generated                         bool
	Key, KeyField, KeyAttr, KeyProse  string
	KeyA                              string
	HasGroup                          bool
	Group, GroupPascal, GroupUpper    string
	GroupA, GroupsPascal, GroupsLower string // "an", "Owners", "owners"
	// What GSI1 groups the entity by, for one attribute or a tuple of them
	// (Tuple, GSI1 a multi-attribute GSI): Groups are its attributes, and
	// the rest say "owner" or "tenant and region" in the files' terms.
	Tuple      bool
	Groups     []attr
	GroupProse string // "owner", "tenant and region"
	GroupOne   string // one element of the seed's list: "owner", "(tenant, region) tuple"
	GroupLocal string // the parameter and local holding one: "owner", "tenantRegion"
	GroupType  string // its Go type in fixtures: string, TicketsTenantRegion
	GroupFunc  string // the fixtures' method making one: OwnerID, TenantRegion
	GroupPool  string // the scenario's pool of them: "owner", "tenant+region"
	// GroupFields are the entity's fields GSI1 keys: "Owner", "Tenant and Region".
	GroupFields string
	// Without and Required name what Create refuses to miss: "an ID or an
	// owner", "ID and owner are".
	Without, Required string
	Lbr, Rbr          string // "[" and "]", which the template delimiters use
}

// attr is one attribute GSI1 groups the entity by: its name, Go field,
// article, and the expression the fixtures set the field from.
type attr struct {
	Name, Pascal, A, From string
}

func (n Names) data() data {
	n = n.withDefaults()
	d := data{
		Entity: n.Entity, EntityPascal: pascal(n.Entity), EntityUpper: strings.ToUpper(n.Entity),
		EntityLower: n.Entity, Lbr: "[", Rbr: "]",
		Generated: n.Key == DefaultKey, Key: n.Key, KeyField: pascal(n.Key), KeyAttr: pascal(n.Key), KeyProse: n.Key,
		HasGroup: n.Group != NoGroup,
	}
	if d.Generated {
		d.KeyField, d.KeyAttr, d.KeyProse = "ID", d.EntityPascal+"ID", "ID"
	}
	d.KeyA = article(d.KeyProse)
	d.Without, d.Required = d.KeyA+" "+d.KeyProse, d.KeyProse+" is"
	if d.HasGroup {
		d.groups(n)
	}
	d.Package = d.pkg(n.Design)
	return d
}

// groups fills in what GSI1 groups the entity by.
func (d *data) groups(n Names) {
	names := n.groups()
	articled, fields := []string{d.KeyA + " " + d.KeyProse}, []string{}
	for _, g := range names {
		a := attr{Name: g, Pascal: pascal(g), A: article(g), From: g}
		d.Groups = append(d.Groups, a)
		articled, fields = append(articled, a.A+" "+g), append(fields, a.Pascal)
	}
	d.Tuple = len(names) > 1
	d.GroupProse, d.GroupFields, d.GroupA = list(names, "and"), list(fields, "and"), article(names[0])
	d.Without = list(articled, "or")
	d.Required = list(append([]string{d.KeyProse}, names...), "and") + " are"
	if !d.Tuple {
		g := names[0]
		d.Group, d.GroupPascal, d.GroupUpper = g, pascal(g), strings.ToUpper(g)
		d.GroupsLower = Plural(g)
		d.GroupsPascal = pascal(d.GroupsLower)
		d.GroupOne, d.GroupLocal, d.GroupType, d.GroupFunc, d.GroupPool = g, g, "string", d.GroupPascal+"ID", g
		return
	}
	// A tuple's Go names join its attributes' (TenantRegion), the last
	// one plural in a list (TenantRegions).
	last := len(names) - 1
	d.GroupPascal = strings.Join(fields, "")
	d.GroupsPascal = strings.Join(fields[:last], "") + pascal(Plural(names[last]))
	d.GroupOne = "(" + strings.Join(names, ", ") + ") tuple"
	d.GroupsLower = d.GroupOne + "s"
	d.GroupLocal = names[0] + strings.Join(fields[1:], "")
	d.GroupType, d.GroupFunc, d.GroupPool = pascal(n.Design)+d.GroupPascal, d.GroupPascal, strings.Join(names, "+")
	for i := range d.Groups {
		d.Groups[i].From = d.GroupLocal + "." + d.Groups[i].Pascal
	}
}

// list joins words as a sentence lists them, with conj ("and", "or")
// before the last: "a", "a and b", "a, b and c".
func list(words []string, conj string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// article is the indefinite article a sentence puts before word.
func article(word string) string {
	if strings.ContainsAny(word[:1], "aeiouAEIOU") {
		return "an"
	}
	return "a"
}

// Plural is the English plural of a word, by the common rules;
// it names the list of groups the fixtures seed, and an imported entity's items.
func Plural(w string) string {
	switch {
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsAny(w[len(w)-2:len(w)-1], "aeiou"):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "lf"):
		return w[:len(w)-1] + "ves"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "z"),
		strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// File is one file of a plan, its path relative to the repository root.
type File struct {
	Path    string
	Content []byte
}

// Plan is what a scaffold writes: new files, and the two registry files
// with their one added line each.
type Plan struct {
	Root   string
	Names  Names
	Create []File   // none of these exists yet
	Change []File   // these exist; Content replaces theirs
	Wired  []string // per Change, the element it adds: "library.Design"
}

// output maps each template to the file it becomes.
func (n Names) output() []struct{ tmpl, path string } {
	d := filepath.Join("designs", n.Design)
	return []struct{ tmpl, path string }{
		{"README.md.tmpl", filepath.Join(d, "README.md")},
		{"schema.go.tmpl", filepath.Join(d, "schema.go")},
		{"catalog.go.tmpl", filepath.Join(d, "catalog.go")},
		{"entity.go.tmpl", filepath.Join(d, n.Entity+".go")},
		{"suite_test.go.tmpl", filepath.Join(d, n.Design+"_suite_test.go")},
		{"entity_test.go.tmpl", filepath.Join(d, n.Entity+"_test.go")},
		{"fixtures.go.tmpl", filepath.Join("fixtures", n.Design+".go")},
		{"scenarios.go.tmpl", filepath.Join("scenarios", n.Design+".go")},
	}
}

// Prepare checks the names against the repository at root and renders
// every file, writing nothing. Any refusal wraps ErrRefused.
func Prepare(root string, n Names) (Plan, error) {
	if err := CheckName(n.Design); err != nil {
		return Plan{}, err
	}
	if err := CheckEntity(n.Entity); err != nil {
		return Plan{}, err
	}
	n = n.withDefaults()
	if err := CheckKeyShape(n); err != nil {
		return Plan{}, err
	}
	var files []File
	d := n.data()
	for _, o := range n.output() {
		f, err := Render(o.tmpl, d, o.path)
		if err != nil {
			return Plan{}, err
		}
		files = append(files, f)
	}
	// The repository's checks and the wiring are the same for every
	// generator of a design.
	p, err := PrepareFiles(root, n.Design, files)
	if err != nil {
		return Plan{}, err
	}
	p.Names = n
	return p, nil
}

// commentWidth is where reflow wraps comments, tabs counted as four.
const commentWidth = 78

// reflow rewraps each run of full-line // comments of one indent, so that
// names of any length leave the generated doc comments evenly filled, as
// a person would have written them. A bare // line ends a paragraph.
func reflow(src []byte) []byte {
	var out []string
	var indent string
	var words []string
	flush := func() {
		if len(words) == 0 {
			return
		}
		width := commentWidth - 4*len(indent) - 3
		line := words[0]
		for _, w := range words[1:] {
			if len(line)+1+len(w) > width {
				out = append(out, indent+"// "+line)
				line = w
			} else {
				line += " " + w
			}
		}
		out = append(out, indent+"// "+line)
		words = nil
	}
	for _, l := range strings.Split(string(src), "\n") {
		trimmed := strings.TrimLeft(l, "\t")
		ind := l[:len(l)-len(trimmed)]
		text, isComment := strings.CutPrefix(trimmed, "//")
		if !isComment || strings.HasPrefix(text, "go:") || ind != indent && len(words) > 0 {
			flush()
		}
		switch {
		case !isComment || strings.HasPrefix(text, "go:"):
			out = append(out, l)
		case strings.TrimSpace(text) == "":
			flush()
			out = append(out, l)
		default:
			indent = ind
			words = append(words, strings.Fields(text)...)
		}
	}
	flush()
	return []byte(strings.Join(out, "\n"))
}

// checkRoot refuses a folder that is not this repository's root.
func checkRoot(root string) error {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return refuse("%s is not the ddbharness repository root (no go.mod): run from the folder that holds go.mod", root)
	}
	first, _, _ := strings.Cut(string(mod), "\n")
	if strings.TrimSpace(first) != "module "+Module {
		return refuse("%s/go.mod is not module %s: run from the ddbharness repository root", root, Module)
	}
	return nil
}

// Write applies the plan: new files first (each design folder is built
// beside its final place and renamed in one step), then the registry files,
// each replaced by rename. A failure takes back what this Write wrote, and
// only that, so the tree is as before: a folder that appeared since Prepare
// (another run's design) is left alone.
func (p Plan) Write() error {
	err := p.write()
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return fmt.Errorf("%w: make designs/, fixtures/ and scenarios/ writable for this user (chmod -R u+w designs fixtures scenarios) and run again", err)
	}
	return err
}

func (p Plan) write() error {
	design := filepath.Join(p.Root, "designs", p.Names.Design)
	tmp, err := os.MkdirTemp(filepath.Join(p.Root, "designs"), "."+p.Names.Design+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var others []File
	for _, f := range p.Create {
		if filepath.Dir(f.Path) == filepath.Join("designs", p.Names.Design) {
			if err := os.WriteFile(filepath.Join(tmp, filepath.Base(f.Path)), f.Content, 0o644); err != nil {
				return err
			}
		} else {
			others = append(others, f)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, design); err != nil {
		return err // nothing of the plan is written yet
	}
	var written []string
	for _, f := range slices.Concat(others, p.Change) {
		if err := replace(filepath.Join(p.Root, f.Path), f.Content); err != nil {
			p.takeBack(written)
			return err
		}
		written = append(written, f.Path)
	}
	return nil
}

// replace writes content beside path and renames it over path, so a reader
// never sees half a file.
func replace(path string, content []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Scaffold prepares and writes the plan as the repository's one writer
// (Lock, which waits for another writer saying so on log).
func Scaffold(ctx context.Context, root string, n Names, log io.Writer) (Plan, error) {
	unlock, err := Lock(ctx, root, log)
	if err != nil {
		return Plan{}, err
	}
	defer unlock()
	p, err := Prepare(root, n)
	if err != nil {
		return Plan{}, err
	}
	return p, p.Write()
}

// Paths lists the plan's new and changed files, slash-separated; changed
// files are in the order of Wired.
func (p Plan) Paths() (created, changed []string) {
	for _, f := range p.Create {
		created = append(created, filepath.ToSlash(f.Path))
	}
	for _, f := range p.Change {
		changed = append(changed, filepath.ToSlash(f.Path))
	}
	return created, changed
}

// ErrRefused is a scaffold that would be wrong to write: a bad or taken
// name, or a folder that is not the repository. Nothing was written.
var ErrRefused = errors.New("refused")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}
