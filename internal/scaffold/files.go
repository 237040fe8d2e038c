package scaffold

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PrepareFiles plans a design whose files another generator rendered (the
// NoSQL Workbench import): the same checks as Prepare (the name, the
// repository, nothing taken) and the same wiring of <design>.Design and
// <Design>Steady. Paths are relative to root; Go files must be formatted.
// Plans in before are written first: this plan's registry files start
// from theirs.
func PrepareFiles(root, design string, files []File, before ...Plan) (Plan, error) {
	n := Names{Design: design}
	if err := CheckName(design); err != nil {
		return Plan{}, err
	}
	if err := checkRoot(root); err != nil {
		return Plan{}, err
	}
	if _, err := os.Lstat(filepath.Join(root, "designs", design)); err == nil {
		return Plan{}, refuse("designs/%s already exists: a design name must be new (pick another name, or remove that folder first)", design)
	}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(root, f.Path)); err == nil {
			return Plan{}, refuse("%s already exists: a design name must be new", filepath.ToSlash(f.Path))
		}
		if !strings.HasPrefix(filepath.ToSlash(f.Path), "designs/"+design+"/") && filepath.Dir(f.Path) != "fixtures" && filepath.Dir(f.Path) != "scenarios" {
			return Plan{}, fmt.Errorf("%s: a design's files go under designs/%s, fixtures or scenarios", f.Path, design)
		}
	}
	if err := checkCollisions(root, n, files); err != nil {
		return Plan{}, err
	}
	p := Plan{Root: root, Names: n, Create: files}
	if err := p.wire(before...); err != nil {
		return Plan{}, err
	}
	return p, nil
}

// wire adds the design's registry edits to the plan: each registry file as
// it is on disk, or as the last of before leaves it, with its line added.
func (p *Plan) wire(before ...Plan) error {
	for _, w := range wiring(p.Names) {
		src, err := os.ReadFile(filepath.Join(p.Root, w.path))
		if err != nil {
			return err
		}
		for _, b := range before {
			for _, c := range b.Change {
				if c.Path == w.path {
					src = c.Content
				}
			}
		}
		out, err := w.add(src)
		if err != nil {
			return fmt.Errorf("%s: %w", w.path, err)
		}
		p.Change = append(p.Change, File{w.path, out})
		p.Wired = append(p.Wired, w.line)
	}
	return nil
}

// Undo takes a written plan back: it removes the files it created and
// takes its line out of each registry file, leaving the rest of the file
// as it is now (Import undoes the earlier designs of a model when a later
// one fails, each taking out only its own line).
func (p Plan) Undo() {
	if p.Root == "" || p.Names.Design == "" {
		return // not a plan Prepare made: nothing of it to take back
	}
	var paths []string
	for _, f := range slices.Concat(p.Create, p.Change) {
		paths = append(paths, f.Path)
	}
	p.takeBack(paths)
}

// takeBack removes the plan's design folder and, of paths (files the plan
// wrote), takes the plan's line out of each registry file and removes the
// others.
func (p Plan) takeBack(paths []string) {
	os.RemoveAll(filepath.Join(p.Root, "designs", p.Names.Design))
	for _, path := range paths {
		i := slices.IndexFunc(wiring(p.Names), func(w wire) bool { return filepath.FromSlash(w.path) == filepath.Clean(path) })
		if i < 0 {
			os.Remove(filepath.Join(p.Root, path))
			continue
		}
		full := filepath.Join(p.Root, path)
		src, err := os.ReadFile(full)
		if err != nil {
			continue // nothing there to take a line out of
		}
		if out, err := wiring(p.Names)[i].remove(src); err == nil && !bytes.Equal(out, src) {
			_ = replace(full, out)
		}
	}
}

// Format is how generated Go leaves the scaffold: comments rewrapped, then
// gofmt, so that names of any length leave the doc comments evenly filled.
func Format(src []byte) ([]byte, error) { return format.Source(reflow(src)) }
