package userfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Write replaces path with data, as Create and Commit do: path is whole
// with either its old content or data, whatever fails. perm is a new
// file's permission (before the umask); an existing file keeps its own.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return &fs.PathError{Op: "write", Path: f.path, Err: unwrapPath(err)}
	}
	return f.Commit()
}

// File is a file being written in place of its target. Commit puts it
// there; Abort, or any failure of Commit, removes it and leaves the
// target as it was. Deferring Abort after Create is the idiom: it does
// nothing once Commit has run.
type File struct {
	*os.File
	path string // the target
	done bool
}

// Create starts the replacement of path: a new file in path's folder
// (rename is atomic only within one file system) that Commit renames over
// it. A symbolic link is followed, so the link stays and its target is
// replaced. An existing path that is not a regular file (a named pipe, a
// device, a folder) is refused with ErrNotRegular: renaming over it would
// replace what the user meant to write through. perm is a new file's
// permission (before the umask); an existing file keeps its own.
func Create(path string, perm os.FileMode) (*File, error) {
	target := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return nil, err
		}
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return nil, notRegular(path, fi.Mode())
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	dir, base := filepath.Split(target)
	for tries := 0; ; tries++ {
		tmp := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && tries < 100 {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
		}
		if fi != nil {
			// The umask narrowed OpenFile's mode; the old file's is kept.
			if err := f.Chmod(perm); err != nil {
				f.Close()
				os.Remove(tmp)
				return nil, err
			}
		}
		return &File{File: f, path: target}, nil
	}
}

// Commit syncs the file to disk and renames it over its target, then
// syncs the folder so that the rename outlives a crash too. On any
// failure the file is removed and the target left as it was.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: committed or aborted already", f.path)
	}
	f.done = true
	tmp := f.Name()
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	if err != nil {
		os.Remove(tmp)
		return &fs.PathError{Op: "write", Path: f.path, Err: unwrapPath(err)}
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		_ = d.Sync() // best effort: some file systems cannot sync a folder
		d.Close()
	}
	return nil
}

// Abort removes the file, leaving the target as it was; after Commit it
// does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// unwrapPath drops an error's own path (the temporary file's), which
// means nothing to the user, for the target's.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
