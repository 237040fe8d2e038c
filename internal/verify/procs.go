package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/internal/procgroup"
)

// interruptGrace is how long a process group interrupted like a Ctrl-C
// (its suites delete their tables) may take before it is killed.
const interruptGrace = 30 * time.Second

// reaperScript ends the process groups still listed when its standard
// input closes: verify lists each child group ("+ PGID") and delists it
// once it has been waited for ("- PGID"), so input closing with groups
// listed means verify died without ending them (kill -9). $1 is the grace
// in tenths of a second between SIGINT (suites clean up, as on Ctrl-C) and
// SIGKILL; 0 kills at once. It ignores the terminal's signals: Ctrl-C is
// verify's to relay.
const reaperScript = `trap '' INT HUP TERM
gs=' '
while read -r op g; do
	case $op in
	+) gs="$gs$g " ;;
	-) gs=$(printf '%s' "$gs" | sed "s/ $g / /") ;;
	esac
done
[ -z "$(echo $gs)" ] && exit 0
if [ "$1" -gt 0 ]; then
	for g in $gs; do kill -INT -$g 2>/dev/null; done
	i=0
	while [ $i -lt "$1" ]; do
		alive=
		for g in $gs; do kill -0 -$g 2>/dev/null && alive=1; done
		[ -z "$alive" ] && exit 0
		sleep 0.1
		i=$((i+1))
	done
fi
for g in $gs; do kill -KILL -$g 2>/dev/null; done
exit 0
`

// reaper is a small shell process that outlives verify only to end the
// process groups verify started (ginkgo, its compiles and test processes,
// go test): Pdeathsig would reach only each group's leader, and ginkgo
// does not pass a signal on to its test processes.
type reaper struct {
	mu  sync.Mutex
	w   *os.File // its standard input; closed only by close or by our death
	cmd *exec.Cmd
}

// startReaper starts the reaper; graceful says whether groups left behind
// get an interrupt first (an outside endpoint, whose tables the suites
// should delete) or are killed at once (an embedded DynamoDB Local, which
// dies with verify and takes the tables with it).
func startReaper(graceful bool) (*reaper, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start the process reaper: %w", err)
	}
	defer r.Close()
	tenths := "0"
	if graceful {
		tenths = "50"
	}
	cmd := exec.Command("/bin/sh", "-c", reaperScript, "reaper", tenths)
	cmd.Stdin, cmd.Stderr = r, os.Stderr
	if err := procgroup.Start(cmd); err != nil {
		w.Close()
		return nil, fmt.Errorf("start the process reaper (/bin/sh): %w", err)
	}
	return &reaper{w: w, cmd: cmd}, nil
}

func (r *reaper) send(op string, pgid int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, _ = io.WriteString(r.w, op+" "+strconv.Itoa(pgid)+"\n")
}

// close lets the reaper end; groups still listed are ended as if verify
// had died.
func (r *reaper) close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	_ = r.w.Close()
	r.mu.Unlock()
	_ = r.cmd.Wait()
}

// startGroup starts cmd in a process group of its own, listed with the
// reaper, and ends the group when ctx ends: SIGKILL when the test bed
// failed (nothing is left to clean up, and waiting would only repeat that
// DynamoDB Local is gone), else SIGINT, as a Ctrl-C would, then SIGKILL
// after interruptGrace. wait waits for cmd and delists it.
func (r *reaper) startGroup(ctx context.Context, cmd *exec.Cmd) (wait func() error, err error) {
	// An orphan holding the output pipe must not keep Wait from returning.
	cmd.WaitDelay = 2 * time.Second
	if err := procgroup.Start(cmd); err != nil {
		return nil, err
	}
	pgid := cmd.Process.Pid
	r.send("+", pgid)
	exited := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-exited:
			return
		case <-ctx.Done():
		}
		var bed failure.TestBed
		if errors.As(context.Cause(ctx), &bed) {
			_ = procgroup.Kill(cmd)
			return
		}
		procgroup.Stop(cmd, syscall.SIGINT, interruptGrace, exited)
	}()
	return func() error {
		err := cmd.Wait()
		close(exited)
		<-watched
		r.send("-", pgid)
		return err
	}, nil
}
