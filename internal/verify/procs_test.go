package verify

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/internal/failure"
)

func TestReaperEndsGroupsLeftListed(t *testing.T) {
	r, err := startReaper(false)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	left := exec.Command("sleep", "60")
	if _, err := r.startGroup(ctx, left); err != nil {
		t.Fatal(err)
	}
	done := exec.Command("true")
	wait, err := r.startGroup(ctx, done)
	if err != nil {
		t.Fatal(err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = left.Wait(); close(ended) }()
	// Closing the reaper's input is what verify dying does.
	r.close()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		_ = left.Process.Kill()
		t.Fatal("a process group still listed outlived the reaper's input closing")
	}
}

func TestStartGroupKillsOnTestBedFailure(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cmd := exec.Command("sh", "-c", "trap '' INT; sleep 60 & wait")
	wait, err := (*reaper)(nil).startGroup(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel(failure.TestBedFailed(errors.New("DynamoDB Local exited")))
	err = wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("wait() = %v, want the group killed", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the group took %s to end, want it killed at once", d)
	}
}
