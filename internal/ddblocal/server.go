package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// MinJava is the oldest Java that runs DynamoDB Local 2.6 and later.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.DownloadingAndRunning.html
const MinJava = 17

// Defaults for Start.
const (
	DefaultReadyTimeout = 60 * time.Second
	DefaultStopTimeout  = 5 * time.Second
)

// Option configures Start.
type Option func(*options)

type options struct {
	log          io.Writer
	readyTimeout time.Duration
	env          *Env
}

// WithLog sends install and start messages to w (default os.Stderr).
func WithLog(w io.Writer) Option { return func(o *options) { o.log = w } }

// WithEnv uses e instead of the process environment.
func WithEnv(e Env) Option { return func(o *options) { o.env = &e } }

// WithReadyTimeout bounds the wait for the first answer to ListTables.
func WithReadyTimeout(d time.Duration) Option { return func(o *options) { o.readyTimeout = d } }

// Server is the DynamoDB endpoint a run talks to: an embedded DynamoDB
// Local this process started, or one the user gave.
type Server struct {
	Endpoint string
	proc     *server // nil for a given endpoint
}

// Embedded reports whether this process started the server.
func (s *Server) Embedded() bool { return s.proc != nil }

// Stop ends an embedded DynamoDB Local; for a given endpoint it does nothing.
func (s *Server) Stop() {
	if s.proc != nil {
		s.proc.stop()
	}
}

// Done is closed when an embedded DynamoDB Local exits, for whatever
// reason; for a given endpoint it never closes.
func (s *Server) Done() <-chan struct{} {
	if s.proc == nil {
		return nil
	}
	return s.proc.exited
}

// Exit says how an embedded DynamoDB Local ended, with its last log lines;
// nil while it runs, after Stop, and for a given endpoint.
func (s *Server) Exit() error {
	if s.proc == nil {
		return nil
	}
	select {
	case <-s.proc.exited:
	default:
		return nil
	}
	s.proc.mu.Lock()
	defer s.proc.mu.Unlock()
	if s.proc.stopping {
		return nil
	}
	return &ExitError{Endpoint: s.Endpoint, At: s.proc.exitAt, State: s.proc.state, Logs: s.proc.logs.String()}
}

// ExitError is an embedded DynamoDB Local that ended while in use.
type ExitError struct {
	Endpoint string
	At       time.Time
	State    string // as the OS tells it: "signal: killed", "exit status 1"
	Logs     string // its last lines
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("DynamoDB Local (%s) exited at %s (%s)", e.Endpoint, e.At.Format("15:04:05.000"), e.State)
	if strings.TrimSpace(e.Logs) != "" {
		msg += "; its last lines:\n" + e.Logs
	}
	return msg
}

// Start returns the server to use; call its Stop when done. With
// AWS_ENDPOINT_URL_DYNAMODB set it checks that endpoint answers and starts
// nothing; otherwise it installs DynamoDB Local if needed and starts it,
// in memory, on a free loopback port. The JVM is killed with this process,
// whatever way it ends.
func Start(ctx context.Context, opts ...Option) (*Server, error) {
	o := options{log: os.Stderr, readyTimeout: DefaultReadyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	env, err := LoadEnv()
	if o.env != nil {
		env, err = *o.env, nil
	}
	if err != nil {
		return nil, err
	}
	if env.Endpoint != "" {
		if err := waitReady(ctx, env.Endpoint, o.readyTimeout, nil); err != nil {
			return nil, fmt.Errorf("%s=%s does not answer: %w. Start DynamoDB Local there, or unset %s to use an embedded one",
				EnvEndpoint, env.Endpoint, err, EnvEndpoint)
		}
		return &Server{Endpoint: env.Endpoint}, nil
	}
	java, err := checkJava(ctx)
	if err != nil {
		return nil, err
	}
	dist, err := Install(ctx, env.CacheDir, o.log)
	if err != nil {
		return nil, err
	}
	s, err := launch(java, dist)
	if err != nil {
		return nil, err
	}
	if err := waitReady(ctx, s.endpoint, o.readyTimeout, s.exited); err != nil {
		s.stop()
		return nil, fmt.Errorf("DynamoDB Local did not start: %w\nits last lines:\n%s", err, s.logs.String())
	}
	return &Server{Endpoint: s.endpoint, proc: s}, nil
}

var javaVersion = regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`)

// checkJava finds java and refuses versions DynamoDB Local cannot run on.
func checkJava(ctx context.Context) (string, error) {
	fix := fmt.Sprintf("install Java %d or newer (Debian: apt-get install openjdk-17-jre-headless), "+
		"or set %s to a running DynamoDB Local (docker compose up -d, then %s=http://127.0.0.1:8000)", MinJava, EnvEndpoint, EnvEndpoint)
	java, err := exec.LookPath("java")
	if err != nil {
		return "", errors.New("java not found on PATH: DynamoDB Local runs on Java. Fix: " + fix)
	}
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	major := javaMajor(out)
	if err != nil || major == 0 {
		return "", fmt.Errorf("%s -version did not tell its version (%v). Fix: %s", java, err, fix)
	}
	if major < MinJava {
		return "", fmt.Errorf("%s is Java %d; DynamoDB Local needs %d or newer. Fix: %s", java, major, MinJava, fix)
	}
	return java, nil
}

// javaMajor reads the major version from `java -version` output, 0 if none.
func javaMajor(out []byte) int {
	m := javaVersion.FindSubmatch(out)
	if m == nil {
		return 0
	}
	major, _ := strconv.Atoi(string(m[1]))
	if major == 1 && len(m[2]) > 0 { // "1.8.0" is Java 8
		major, _ = strconv.Atoi(string(m[2]))
	}
	return major
}

type server struct {
	endpoint string
	cmd      *exec.Cmd
	logs     *ring
	exited   chan struct{} // closed when the JVM ends
	once     sync.Once

	mu       sync.Mutex
	stopping bool      // stop was called: an exit is expected
	exitAt   time.Time // when the JVM ended
	state    string    // how it ended
}

func launch(java string, dist Dist) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("start DynamoDB Local: no free port: %w", err)
	}
	// -sharedDb: one database whatever the client's key and region (AWS
	// documents -inMemory with it); -disableTelemetry: no outside network.
	cmd := exec.Command(java, "-Djava.library.path="+dist.Lib, "-Xss1m", "-jar", dist.Jar,
		"-inMemory", "-sharedDb", "-disableTelemetry", "-port", strconv.Itoa(port))
	s := &server{endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, logs: &ring{max: 30}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	// Own process group: a terminal's Ctrl-C reaches us, and we stop the JVM
	// in order. Pdeathsig: the JVM dies with us even when we are killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start DynamoDB Local: %w", err)
	}
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.exitAt, s.state = time.Now(), "exit status 0"
		if err != nil {
			s.state = err.Error()
		}
		s.mu.Unlock()
		close(s.exited)
	}()
	return s, nil
}

// stop asks the JVM to end, then kills it if it lingers.
func (s *server) stop() {
	s.once.Do(func() {
		s.mu.Lock()
		s.stopping = true
		s.mu.Unlock()
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(DefaultStopTimeout):
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	})
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls ListTables until the endpoint answers, the process exits
// (exited closes), the timeout passes or ctx ends.
func waitReady(ctx context.Context, endpoint string, timeout time.Duration, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := Client(endpoint, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		callCtx, callCancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.ListTables(callCtx, &dynamodb.ListTablesInput{})
		callCancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("it exited")
		case <-ctx.Done():
			return fmt.Errorf("no answer to ListTables within %s: %v", timeout, err)
		case <-tick.C:
		}
	}
}

// ring keeps the last lines the JVM wrote, for error messages.
type ring struct {
	mu    sync.Mutex
	max   int
	lines [][]byte
	part  []byte
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.part = append(r.part, p...)
	for {
		i := bytes.IndexByte(r.part, '\n')
		if i < 0 {
			break
		}
		r.lines = append(r.lines, append([]byte(nil), r.part[:i]...))
		r.part = r.part[i+1:]
		if len(r.lines) > r.max {
			r.lines = r.lines[1:]
		}
	}
	return len(p), nil
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(bytes.Join(append(r.lines, r.part), []byte("\n")))
}
