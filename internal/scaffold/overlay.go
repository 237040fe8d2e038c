package scaffold

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Overlay is what plans would write, as go build's -overlay reads it: the
// go command compiles and vets the designs as if written, while the
// repository holds none of them. A check that runs on it and is killed
// leaves no design registered that was not checked.
//
// File is the overlay's JSON, in a folder of its own outside the
// repository. The go command vets a package from its folder, so a new
// design's folder is made, empty, for the check: a folder with no Go file
// is no package, so a killed check leaves nothing any build reads (a new
// design of that name is refused until the folder is removed, as for any
// folder there).
type Overlay struct {
	File string
	tmp  string
	made []string // the empty design folders this overlay made
}

// NewOverlay writes the plans' files into a temporary folder and maps each
// to its place in the repository. A plan's registry files replace an
// earlier plan's, as Write leaves them. Close removes it all.
func NewOverlay(plans ...Plan) (*Overlay, error) {
	tmp, err := os.MkdirTemp("", "ddbharness-overlay-")
	if err != nil {
		return nil, err
	}
	o := &Overlay{File: filepath.Join(tmp, "overlay.json"), tmp: tmp}
	replace := map[string]string{}
	n := 0
	for _, p := range plans {
		root, err := filepath.Abs(p.Root)
		if err != nil {
			o.Close()
			return nil, err
		}
		design := filepath.Join(root, "designs", p.Names.Design)
		if _, err := os.Lstat(design); errors.Is(err, os.ErrNotExist) {
			if err := os.Mkdir(design, 0o755); err != nil {
				o.Close()
				return nil, err
			}
			o.made = append(o.made, design)
		}
		for _, f := range slices.Concat(p.Create, p.Change) {
			n++
			src := filepath.Join(tmp, strconv.Itoa(n)+"-"+filepath.Base(f.Path))
			if err := os.WriteFile(src, f.Content, 0o644); err != nil {
				o.Close()
				return nil, err
			}
			replace[filepath.Join(root, f.Path)] = src
		}
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err == nil {
		err = os.WriteFile(o.File, b, 0o644)
	}
	if err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// Close removes the overlay's files and the folders it made, when they
// are still empty (Write renames a design's files into its folder).
func (o *Overlay) Close() {
	for _, d := range o.made {
		_ = os.Remove(d) // only an empty folder goes
	}
	_ = os.RemoveAll(o.tmp)
}
