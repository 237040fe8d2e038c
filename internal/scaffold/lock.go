package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// lockPoll is how often a writer waiting for the lock asks again: short
// enough that Ctrl-C ends the wait at once, long enough to cost nothing.
const lockPoll = 50 * time.Millisecond

// Lock makes the caller the one writer of the repository at root.
// new-design and import-model each read the registry files, write a design
// into them, check it and, on failure, take it back; two at once would
// each write back their own copy and lose or break the other's line. So
// each holds this lock from the first read to the last undo. A second
// writer waits, saying so once on log (nil: silently), until the first is
// done or ctx ends. The lock is the kernel's (flock on the root folder),
// so it is let go however its holder ends, even by SIGKILL.
func Lock(ctx context.Context, root string, log io.Writer) (unlock func(), err error) {
	dir, err := os.Open(root)
	if err != nil {
		return nil, refuse("%v: run from the ddbharness repository root", err)
	}
	fd := int(dir.Fd())
	for said := false; ; said = true {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(fd, syscall.LOCK_UN)
				dir.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			dir.Close()
			return nil, fmt.Errorf("lock %s for writing: %w", root, err)
		}
		if !said && log != nil {
			fmt.Fprintf(log, "another new-design or import-model is writing designs into %s: waiting for it to finish\n", root)
		}
		select {
		case <-ctx.Done():
			dir.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}
