package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/internal/userfile"
)

// Calls are written to the results file as they end, in vegeta's gob
// encoding, and never kept: a run's memory does not grow with its length.
// The file is in order of end, not of intended time. Each pattern's calls
// are numbered (Seq) when the schedule draws them, which is in order of
// intended time, so vegeta's plot, which reorders by Seq, reads the file
// as it is; no reader has to sort it. A call an interrupt cuts short
// leaves its number unused.

// resultsFile writes Results to a file as calls end; it keeps the first
// error and writes nothing after it.
type resultsFile struct {
	f   *os.File
	buf *bufio.Writer
	enc vegeta.Encoder
	err error
}

func createResults(path string) (*resultsFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	buf := bufio.NewWriterSize(f, 64<<10)
	return &resultsFile{f: f, buf: buf, enc: vegeta.NewEncoder(buf)}, nil
}

func (w *resultsFile) write(r *vegeta.Result) {
	if w.err == nil {
		w.err = w.enc.Encode(r)
	}
}

// close flushes and closes the file, once; it returns the first error.
func (w *resultsFile) close() error {
	if w.f == nil {
		return w.err
	}
	name := w.f.Name()
	if err := errors.Join(w.err, w.buf.Flush(), w.f.Close()); err != nil {
		w.err = fmt.Errorf("results %s: %w", name, err)
	}
	w.f = nil
	return w.err
}

// ReadResults calls each with every Result of the file at path, in the
// file's order, one at a time: nothing is kept. It stops at the first
// error each returns. The file must be a regular one
// (userfile.OpenRegular): a named pipe given as a report's results would
// hold the reader for ever.
func ReadResults(path string, each func(*vegeta.Result) error) error {
	f, err := userfile.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := vegeta.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := each(&r); err != nil {
			return err
		}
	}
}
