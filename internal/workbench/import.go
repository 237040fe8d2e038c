package workbench

import (
	"fmt"
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

// Import reads the model in file and writes one design per table into the
// repository at root: name for a one-table model, name plus the table's
// name for each table of a larger one (name empty: the model's name).
// Everything is checked and rendered before the first write; a bad model
// or a taken name writes nothing.
func Import(root, file, name string) ([]Imported, error) {
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
		p, err := scaffold.PrepareFiles(root, n, files, prev...)
		if err != nil {
			return nil, err
		}
		prev = append(prev, p)
		out = append(out, Imported{d, p})
	}
	for i, im := range out {
		if err := im.Plan.Write(); err != nil {
			for _, done := range out[:i] {
				done.Plan.Undo()
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
