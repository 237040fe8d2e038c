package endpoint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// speedEnv, set by the speed benchmark to on or off, makes this test
// binary serve an endpoint in place of running tests (TestMain).
const speedEnv = "DDBHARNESS_SPEED_ENDPOINT"

// speedProfileEnv, set to a directory, has each endpoint the speed
// benchmark starts write its CPU profile there (limits-on.pprof,
// limits-off.pprof), to read with go tool pprof: where its time goes.
const speedProfileEnv = "DDBHARNESS_SPEED_CPUPROFILE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(speedEnv); mode != "" {
		os.Exit(serveSpeedEndpoint(mode))
	}
	os.Exit(m.Run())
}

// serveSpeedEndpoint serves an endpoint (limits on, or off) of the
// DynamoDB Local in the environment, as local --limits does, prints its
// URL, and serves until its standard input closes.
func serveSpeedEndpoint(mode string) int {
	SetProcs()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := Server(New(Config{Local: os.Getenv(testbed.EnvEndpoint), Off: mode == "off"}), HeaderTimeout, BodyTimeout)
	if dir := os.Getenv(speedProfileEnv); dir != "" {
		f, err := os.Create(filepath.Join(dir, "limits-"+mode+".pprof"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	go srv.Serve(lis)
	fmt.Printf("http://%s\n", lis.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	return 0
}

// endpointProc is an endpoint served by a process of its own: its URL,
// and its CPU time so far (nil: no endpoint, straight to Local).
type endpointProc struct {
	url string
	cpu func() time.Duration
}

// speedStart bounds the wait for the endpoint's process to print its URL,
// at heavy load.
const speedStart = time.Minute

// speedEndpoint starts this test binary as an endpoint of local with
// limits on or off, and stops it when b ends.
func speedEndpoint(b *testing.B, local, mode string) endpointProc {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), speedEnv+"="+mode, testbed.EnvEndpoint+"="+local)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	b.Cleanup(stop)
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		s.Scan()
		line <- s.Text()
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-line:
		if !strings.HasPrefix(url, "http://") {
			b.Fatalf("the endpoint's process (limits %s) printed %q, not its URL", mode, url)
		}
		pid := cmd.Process.Pid
		return endpointProc{url: url, cpu: func() time.Duration { return processCPU(b, pid) }}
	case <-time.After(speedStart):
		b.Fatalf("the endpoint's process (limits %s) printed no URL in %v", mode, speedStart)
	}
	return endpointProc{}
}

// processCPU is the CPU time (user and system) process pid has spent,
// from /proc (Linux), in the kernel's clock ticks of 10 ms.
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("the endpoint's CPU time: %v (the benchmark reads /proc: Linux only)", err)
	}
	// Fields after the command's name, which is in parentheses: utime
	// and stime are the 12th and 13th.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		b.Fatalf("the endpoint's /proc stat has %d fields after its name", len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("the endpoint's /proc stat: %v", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
