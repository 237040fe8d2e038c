package procgroup

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// started starts script under sh in a group of its own; the script prints
// its child's PID first. exited closes when sh has been waited for.
func started(t *testing.T, script string) (cmd *exec.Cmd, child int, exited chan struct{}, waitErr *error) {
	t.Helper()
	cmd = exec.Command("/bin/sh", "-c", script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = Kill(cmd)
		t.Fatalf("read the child's PID: %v", err)
	}
	child, err = strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		_ = Kill(cmd)
		t.Fatal(err)
	}
	exited, waitErr = make(chan struct{}), new(error)
	go func() { *waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = Kill(cmd); <-exited })
	return cmd, child, exited, waitErr
}

// gone waits until pid has ended, for up to a minute (a loaded machine
// is slow to deliver a signal): no such process, or a zombie that its new
// parent (init, once sh is killed) has not reaped yet.
func gone(pid int) bool {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); <-tick.C {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); err == nil && i >= 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
			return true
		}
	}
	return false
}

func TestStartOwnsAGroup(t *testing.T) {
	cmd, child, _, _ := started(t, "sleep 60 & echo $!; wait")
	if pgid, err := syscall.Getpgid(cmd.Process.Pid); err != nil || pgid != cmd.Process.Pid {
		t.Errorf("the command's group = %d, %v; want its own, %d", pgid, err, cmd.Process.Pid)
	}
	if pgid, err := syscall.Getpgid(child); err != nil || pgid != cmd.Process.Pid {
		t.Errorf("its child's group = %d, %v; want the command's, %d", pgid, err, cmd.Process.Pid)
	}
}

func TestOwnKeepsOtherAttributes(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	Own(cmd)
	if !cmd.SysProcAttr.Setpgid || cmd.SysProcAttr.Pdeathsig != syscall.SIGKILL {
		t.Errorf("SysProcAttr = %+v, want Setpgid and the Pdeathsig set before", *cmd.SysProcAttr)
	}
}

func TestKillEndsTheWholeGroup(t *testing.T) {
	cmd, child, exited, _ := started(t, "sleep 60 & echo $!; wait")
	if err := Kill(cmd); err != nil {
		t.Fatal(err)
	}
	<-exited
	if !gone(child) {
		t.Errorf("the command's child %d outlived the group's kill", child)
	}
}

func TestStopSignalsThenKills(t *testing.T) {
	// sh and its child ignore SIGTERM: Stop kills them after the grace.
	cmd, child, exited, waitErr := started(t, "trap '' TERM; sleep 60 & echo $!; wait")
	start := time.Now()
	Stop(cmd, syscall.SIGTERM, 200*time.Millisecond, exited)
	var exit *exec.ExitError
	if !errors.As(*waitErr, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the command ended with %v, want SIGKILL", *waitErr)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("Stop killed after %s, want the grace of 200ms first", d)
	}
	if !gone(child) {
		t.Errorf("the command's child %d outlived Stop", child)
	}

	// A group that ends on the signal is not killed.
	cmd, _, exited, waitErr = started(t, "sleep 60 & echo $!; wait")
	Stop(cmd, syscall.SIGTERM, time.Minute, exited)
	if !errors.As(*waitErr, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the command ended with %v, want SIGTERM", *waitErr)
	}
}
