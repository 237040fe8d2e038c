package workbench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// Imported is one design an import wrote.
type Imported struct {
	Design *Design
	Plan   scaffold.Plan
}

// Importer writes the designs of NoSQL Workbench models into the
// repository at Root, as its one writer (scaffold.Lock): from the first
// read of the registry files to the last undo, so that two imports, or an
// import and a new-design, at once neither lose nor break each other's
// registry lines.
type Importer struct {
	Root string
	// Log hears that the import waits for another writer; nil: silence.
	Log io.Writer
	// Check runs on the written designs before the lock is let go (the
	// command's go vet); an error takes every design of the model back.
	Check func(context.Context, []Imported) error
}

// Import reads the model in file and writes one design per table: name
// for a one-table model, name plus the table's name for each table of a
// larger one (name empty: the model's name). Everything is checked and
// rendered before the first write; a bad model, a taken name or a failed
// Check leaves the repository as it was, but for what another writer
// added meanwhile.
func (im Importer) Import(ctx context.Context, file, name string) ([]Imported, error) {
	unlock, err := scaffold.Lock(ctx, im.Root, im.Log)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out, err := im.write(file, name)
	if err != nil || im.Check == nil {
		return out, err
	}
	if err := im.Check(ctx, out); err != nil {
		for _, done := range out {
			done.Plan.Undo()
		}
		return nil, err
	}
	return out, nil
}

// write plans every table's design, then writes them all or none.
func (im Importer) write(file, name string) ([]Imported, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadModel, file, err)
	}
	m, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if name == "" {
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
			return nil, fmt.Errorf("%w: tables %q and %q would both become design %s: rename one of them in the model", ErrBadModel, other, t.TableName, n)
		}
		tableOf[n] = t.TableName
		if err := scaffold.CheckName(n); err != nil {
			return nil, fmt.Errorf("%w (name the design with -name)", err)
		}
		d, err := Infer(n, t)
		if err != nil {
			return nil, err
		}
		files, err := d.Files(m.ModelName)
		if err != nil {
			return nil, err
		}
		p, err := scaffold.PrepareFiles(im.Root, n, files, prev...)
		if err != nil {
			return nil, err
		}
		prev = append(prev, p)
		out = append(out, Imported{d, p})
	}
	for i, done := range out {
		if err := done.Plan.Write(); err != nil {
			for _, w := range out[:i] {
				w.Plan.Undo()
			}
			return nil, err
		}
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
