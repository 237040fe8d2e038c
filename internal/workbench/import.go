package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ddbharness/ddbharness/internal/figure"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// Imported is one design an import wrote.
type Imported struct {
	Design *shape.Design
	Plan   scaffold.Plan
}

// Importer writes the designs of NoSQL Workbench models into the
// repository at Root, as its one writer (scaffold.Lock): from the first
// read of the registry files to the last undo, so that two imports, or an
// import and a new-design, at once neither lose nor break each other's
// registry lines.
type Importer struct {
	Root string
	// Log hears the import's steps, and that it waits for another
	// writer; nil: silence.
	Log io.Writer
	// Check runs on the designs planned, before anything of them is
	// written (the command's go vet, on scaffold.NewOverlay); an error
	// writes nothing. The registry lines are written last, once it
	// passed, so an import killed at any moment leaves no design
	// registered that was not checked.
	Check func(context.Context, []Imported) error
	// MaxBytes bounds the model file; 0: MaxModelBytes.
	MaxBytes int64
	// Strict refuses a model with an access pattern the import cannot
	// generate, instead of leaving it in the catalog uncovered.
	Strict bool
}

// Import reads the model in file and writes one design per table: name
// for a one-table model, name plus the table's name for each table of a
// larger one (name empty: the model's name). Everything is checked,
// rendered and given to Check before the first write; a bad model, a
// taken name or a failed Check leaves the repository as it was, but for
// what another writer added meanwhile.
func (im Importer) Import(ctx context.Context, file, name string) ([]Imported, error) {
	unlock, err := scaffold.Lock(ctx, im.Root, im.Log)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out, err := im.prepare(ctx, file, name)
	if err != nil {
		return nil, err
	}
	if im.Check != nil {
		if err := im.Check(ctx, out); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // stopped once checked: nothing is written
	}
	if err := write(out); err != nil {
		return nil, err
	}
	return out, nil
}

// MaxModelBytes is the largest model the import reads: far above any model
// a person draws (a 50,000-item one is 15 MB), low enough that a wrong
// file, or an endless one such as /dev/zero, is refused before it fills
// the memory.
const MaxModelBytes = 64 << 20

// say writes one line of the import's progress to Log.
func (im Importer) say(format string, args ...any) {
	if im.Log != nil {
		fmt.Fprintln(im.Log, "import-model: "+scaffold.Printable(fmt.Sprintf(format, args...)))
	}
}

// prepare reads the model and plans every table's design, writing
// nothing.
func (im Importer) prepare(ctx context.Context, file, name string) ([]Imported, error) {
	limit := im.MaxBytes
	if limit == 0 {
		limit = MaxModelBytes
	}
	data, err := userfile.Read(ctx, file, limit)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, userfile.ErrTooLarge):
		return nil, fmt.Errorf("%w: %v (a model needs only a few sample items per facet: trim them)", modelfile.ErrBadModel, err)
	case err != nil: // the error names the file
		return nil, fmt.Errorf("%w: %v: give the path of a NoSQL Workbench model file", modelfile.ErrBadModel, err)
	}
	im.say("read %s (%s)", file, figure.Bytes(len(data)))
	// Planning writes nothing and takes seconds on a large model, in steps
	// that do not all look at ctx: the import stops waiting for it at once.
	type planned struct {
		out []Imported
		err error
	}
	done := make(chan planned, 1)
	go func() {
		out, err := im.plan(ctx, data, file, name)
		done <- planned{out, err}
	}()
	select {
	case p := <-done:
		return p.out, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// write writes the planned designs, all or none: each plan's registry
// lines last (scaffold.Plan.Write).
func write(out []Imported) error {
	for i, done := range out {
		if err := done.Plan.Write(); err != nil {
			for _, w := range out[:i] {
				w.Plan.Undo()
			}
			return err
		}
	}
	return nil
}

// plan checks the model in data and renders and plans each table's
// design, writing nothing.
func (im Importer) plan(ctx context.Context, data []byte, file, name string) ([]Imported, error) {
	say := func(format string, args ...any) {
		if ctx.Err() == nil { // after a stop, the import has said its last
			im.say(format, args...)
		}
	}
	m, err := modelfile.ParseContext(ctx, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	samples := 0
	for _, t := range m.DataModel {
		samples += len(t.Samples())
	}
	say("checked %s sample items in %s", figure.Thousands(samples), figure.Count(len(m.DataModel), "table", "tables"))
	for _, n := range m.Notes {
		say("%s", n)
	}
	given := name != ""
	if !given {
		name = packageName(m.ModelName)
		if name == "" {
			name = packageName(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
		}
	}
	var out []Imported
	var prev []scaffold.Plan
	tableOf := map[string]string{} // design name: the table it came from
	for _, t := range m.DataModel {
		n := name
		if len(m.DataModel) > 1 {
			n = name + packageName(t.TableName)
		}
		if other, ok := tableOf[n]; ok {
			return nil, fmt.Errorf("%w: tables %q and %q would both become design %s: rename one of them in the model", modelfile.ErrBadModel, other, t.TableName, n)
		}
		tableOf[n] = t.TableName
		if err := scaffold.CheckName(n); err != nil && given {
			return nil, err
		} else if err != nil {
			return nil, fmt.Errorf("%w (name the design with -name)", err)
		}
		d, err := shape.Infer(n, t)
		if err != nil {
			return nil, err
		}
		if err := im.strict(d); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		files, err := Files(d, m.ModelName)
		if err != nil {
			return nil, err
		}
		size := 0
		for _, f := range files {
			size += len(f.Content)
		}
		say("table %q: %s, %s, %d files (%s) rendered", t.TableName, figure.Count(len(d.Entities), "entity", "entities"), figure.Count(len(d.Patterns), "pattern", "patterns"), len(files), figure.Bytes(size))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := scaffold.PrepareFiles(im.Root, n, files, prev...)
		if err != nil {
			return nil, err
		}
		prev = append(prev, p)
		out = append(out, Imported{d, p})
	}
	return out, nil
}

var notName = regexp.MustCompile(`[^a-z0-9]+`)

// packageName is s as a design name: lower case letters and digits,
// starting with a letter.
func packageName(s string) string {
	s = notName.ReplaceAllString(strings.ToLower(s), "")
	s = strings.TrimLeft(s, "0123456789")
	if len(s) > scaffold.MaxNameLen {
		s = s[:scaffold.MaxNameLen]
	}
	return s
}

// strict refuses, when Strict is set, a design with model patterns the
// import could not generate, naming each and why.
func (im Importer) strict(d *shape.Design) error {
	if !im.Strict {
		return nil
	}
	var why []string
	for _, p := range d.Patterns {
		if p.Why != "" {
			why = append(why, fmt.Sprintf("%s (%s): %s", p.ID, p.Name, p.Why))
		}
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%w: table %q: -strict, and %s cannot be generated: %s (write them as one aws dynamodb command each, or import without -strict to keep them as uncovered catalog rows)",
		modelfile.ErrBadModel, d.Table.TableName, figure.Count(len(why), "access pattern", "access patterns"), strings.Join(why, "; "))
}
