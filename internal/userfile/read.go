package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/ddbharness/ddbharness/internal/figure"
)

// ErrNotRegular is the error (wrapped) for a path that is not a regular
// file: a named pipe, a device, a socket or a folder.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error (wrapped) for a file over ReadRegular's limit.
var ErrTooLarge = errors.New("file too large")

// OpenRegular opens path for reading when it is a regular file, and
// refuses anything else with ErrNotRegular, naming the path and what it
// is. It opens without blocking, so that a named pipe with no writer is
// refused at once instead of holding the caller until one comes, and it
// checks the file it opened (not the path again), so that the path cannot
// be swapped between the check and the read.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, fi.Mode())
	}
	return f, nil
}

// ReadRegular reads path whole when it is a regular file (OpenRegular) of
// at most limit bytes; a larger one is refused with ErrTooLarge, naming
// the path and the limit, without reading more than limit+1 bytes of it.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrapPath(err)}
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %s, the most this file may hold: %w", path, figure.Bytes(limit), ErrTooLarge)
	}
	return b, nil
}

// notRegular says what path is instead of a regular file.
func notRegular(path string, m fs.FileMode) error {
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s is %w but %s", path, ErrNotRegular, what)
}
