package procgroup

import (
	"os/exec"
	"syscall"
	"time"
)

// Own makes cmd start as the leader of a new process group, whose ID is
// cmd's PID, keeping whatever else cmd.SysProcAttr asks (Pdeathsig). Start
// calls it; call it directly only when something else starts cmd.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Start starts cmd in a process group of its own.
func Start(cmd *exec.Cmd) error {
	Own(cmd)
	return cmd.Start()
}

// Signal sends sig to every process in cmd's group; cmd must have been
// started in a group of its own.
func Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	return syscall.Kill(-cmd.Process.Pid, sig)
}

// Kill sends SIGKILL to every process in cmd's group.
func Kill(cmd *exec.Cmd) error { return Signal(cmd, syscall.SIGKILL) }

// Stop sends sig to cmd's group and waits until exited closes (whoever
// waits for cmd closes it once cmd.Wait returns); if that takes longer
// than grace, it kills the group and waits again. A command that has
// exited already is not signalled.
func Stop(cmd *exec.Cmd, sig syscall.Signal, grace time.Duration, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	default:
	}
	_ = Signal(cmd, sig)
	select {
	case <-exited:
	case <-time.After(grace):
		_ = Kill(cmd)
		<-exited
	}
}
