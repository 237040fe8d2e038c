package userfile

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ReadTimeout bounds how long Read waits for a file's bytes: a regular
// file of the largest size any caller allows (1 GiB) reads in seconds
// from a local disk, while one on a network file system that stopped
// answering would hold the command for ever.
const ReadTimeout = 2 * time.Minute

// ErrSlow is the error (wrapped) for a file Read gave up waiting for.
var ErrSlow = errors.New("read timed out")

// Read is the one way a command reads a file a user names: ReadRegular
// (a regular file, within limit), bounded in time as well. It returns at
// once when ctx ends (Ctrl-C, SIGTERM), with ctx's error, and after
// ReadTimeout with ErrSlow, even while the read itself is stuck in the
// kernel: that read is left to end on its own, and its bytes are dropped.
func Read(ctx context.Context, path string, limit int64) ([]byte, error) {
	return readWithin(ctx, path, limit, ReadTimeout)
}

// readRegular is what Read runs; the specs replace it with a read that
// never ends.
var readRegular = ReadRegular

func readWithin(ctx context.Context, path string, limit int64, timeout time.Duration) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read %s: stopped: %w", path, err)
	}
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	readFile := readRegular // taken here: the read may outlive a spec that swaps it
	go func() {
		b, err := readFile(path, limit)
		done <- read{b, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("read %s: stopped: %w", path, ctx.Err())
	case <-t.C:
		return nil, fmt.Errorf("%s was not read whole within %s (a file system that stopped answering?): %w; copy the file to a local disk", path, timeout, ErrSlow)
	}
}
