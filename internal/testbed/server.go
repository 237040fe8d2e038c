package testbed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/procgroup"
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
	aws          bool
}

// AWS lets Start answer with real DynamoDB, at the AWS configuration's own
// endpoint for its region, when the user opted in (EnvAllowRemote) and
// named no endpoint: bench runs there; the test suites never do.
func AWS() Option { return func(o *options) { o.aws = true } }

// Log sends install and start messages to w (default os.Stderr).
func Log(w io.Writer) Option { return func(o *options) { o.log = w } }

// FromEnv uses e instead of the process environment.
func FromEnv(e Env) Option { return func(o *options) { o.env = &e } }

// ReadyTimeout bounds the wait for the first answer to ListTables.
func ReadyTimeout(d time.Duration) Option { return func(o *options) { o.readyTimeout = d } }

// Server is the DynamoDB endpoint a run talks to: an embedded DynamoDB
// Local this process started, or one the user gave.
type Server struct {
	Endpoint string // empty: real DynamoDB in Region (option AWS)
	Region   string
	// LoopbackOnly says this process started it bound to 127.0.0.1 (the
	// loopback launcher); false for a given endpoint, or a Java that could
	// not build the launcher and ran the plain jar on every interface.
	LoopbackOnly bool
	proc         *server // nil for a given endpoint
}

// Remote reports whether the server is off this machine: real DynamoDB,
// or an endpoint that is not loopback.
func (s *Server) Remote() bool { return s.Endpoint == "" || !IsLoopback(s.Endpoint) }

// IsAWS reports whether the endpoint is real DynamoDB: AWS's own for the
// configured region (empty), or a host of AWS's.
func IsAWS(endpoint string) bool {
	if endpoint == "" {
		return true
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return strings.HasSuffix(h, ".amazonaws.com") || strings.HasSuffix(h, ".amazonaws.com.cn") || strings.HasSuffix(h, ".api.aws")
}

// Where says where the server is, for people.
func (s *Server) Where() string {
	if s.Endpoint == "" {
		return "real DynamoDB in " + s.Region
	}
	return Redact(s.Endpoint)
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
	msg := fmt.Sprintf("DynamoDB Local (%s) exited at %s (%s)", Redact(e.Endpoint), e.At.Format("15:04:05.000"), e.State)
	if strings.TrimSpace(e.Logs) != "" {
		msg += "; its last lines:\n" + e.Logs
	}
	return msg
}

// RefusedGrace is how long a given endpoint may refuse connections before
// Start gives up: long enough for a container's port to open, short
// enough that a closed port or a dead run's endpoint shows at once.
const RefusedGrace = 2 * time.Second

// RemoteError is a non-loopback endpoint without the user's opt-in (Env.
// Reach): the harness refuses it before sending anything there.
type RemoteError struct {
	Var      string // the variable that named it, or words that say where it came from
	Endpoint string
}

func (e *RemoteError) Error() string {
	where := e.Var + "=" + Redact(e.Endpoint)
	unset := "or unset " + e.Var + " to use an embedded DynamoDB Local"
	if e.Var != EnvEndpoint && e.Var != EnvRunEndpoint { // words, not a variable to unset
		where, unset = e.Var+" "+Redact(e.Endpoint), "or point it at DynamoDB Local"
	}
	return fmt.Sprintf("%s is not on this machine, and the harness sends nothing there without %s=1. "+
		"Set %s=1 to let it call that endpoint with your AWS credentials and create, load and delete its own %s* tables there; %s",
		where, EnvAllowRemote, EnvAllowRemote, designs.TablePrefix, unset)
}

// Start returns the server to use; call its Stop when done. Given an
// endpoint (AWS_ENDPOINT_URL_DYNAMODB, or the run's own through
// DDBHARNESS_RUN_ENDPOINT) it checks that the endpoint answers as DynamoDB
// and starts nothing; a non-loopback one needs DDBHARNESS_ALLOW_REMOTE=1,
// decided before any request. Otherwise it installs DynamoDB Local if
// needed (repairing a broken cache) and starts it, in memory, on a free
// port of 127.0.0.1, listening there only. The JVM is killed with this
// process, whatever way it ends.
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
		return given(ctx, env, o.readyTimeout)
	}
	if o.aws && env.AllowRemote {
		return realDynamoDB(ctx)
	}
	java, err := checkJava(ctx)
	if err != nil {
		return nil, err
	}
	dist, err := Install(ctx, env.CacheDir, o.log)
	if err != nil {
		return nil, err
	}
	args, loopbackOnly, cleanup := launchArgs(ctx, java, dist, env.CacheDir, o.log)
	s, err := launch(java, args, cleanup)
	if err != nil {
		return nil, err
	}
	if err := waitReady(ctx, NewClient(s.endpoint, env), o.readyTimeout, o.readyTimeout, s.exited); err != nil {
		s.stop()
		return nil, fmt.Errorf("DynamoDB Local did not start: %w\nits last lines:\n%s", err, s.logs.String())
	}
	return &Server{Endpoint: s.endpoint, LoopbackOnly: loopbackOnly, proc: s}, nil
}

// given checks an endpoint the harness did not start: the remote opt-in
// first, then that it answers as DynamoDB. Errors name where the endpoint
// came from, so a run's own endpoint never blames a variable the user did
// not set.
func given(ctx context.Context, env Env, timeout time.Duration) (*Server, error) {
	if _, err := env.Reach(env.Endpoint, env.EndpointVar()); err != nil {
		return nil, err
	}
	err := remoteCredentials(ctx, env.Endpoint)
	if err == nil {
		err = waitReady(ctx, NewClient(env.Endpoint, env), timeout, RefusedGrace, nil)
	}
	if err == nil {
		return &Server{Endpoint: env.Endpoint}, nil
	}
	if env.FromRunner {
		return nil, fmt.Errorf("the run's DynamoDB Local at %s is not usable: %w. It answered when the run started, so it has stopped since: "+
			"look above in the run's output for why, then run it again", Redact(env.Endpoint), err)
	}
	return nil, fmt.Errorf("%s=%s is not usable: %w. Start DynamoDB Local there (docker compose up -d), "+
		"or unset %s to let the harness start an embedded one", EnvEndpoint, Redact(env.Endpoint), err, EnvEndpoint)
}

// realDynamoDB checks that the AWS configuration names a region and
// yields credentials: the endpoint is the region's own.
func realDynamoDB(ctx context.Context) (*Server, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err == nil && cfg.Region == "" {
		err = errors.New("no region: set AWS_REGION (or a profile's region) to the region to run in")
	}
	if err == nil {
		_, err = cfg.Credentials.Retrieve(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("%s=1 with no %s runs on real DynamoDB, but the AWS configuration is not usable: %v. Configure it as the AWS CLI would (AWS_REGION, and AWS_PROFILE or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), or unset %s",
			EnvAllowRemote, EnvEndpoint, err, EnvAllowRemote)
	}
	return &Server{Region: cfg.Region}, nil
}

// remoteCredentials checks, for a non-loopback endpoint, that the usual
// AWS configuration yields credentials: without them every call fails
// the same way, so waiting for an answer would only hide the cause.
func remoteCredentials(ctx context.Context, endpoint string) error {
	if IsLoopback(endpoint) {
		return nil
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err == nil {
		_, err = cfg.Credentials.Retrieve(ctx)
	}
	if err != nil {
		return fmt.Errorf("no AWS credentials to sign requests to it (%v); configure them as the AWS CLI would (AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)", err)
	}
	return nil
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

// launch starts java with args (launchArgs) and DynamoDB Local's own
// options; cleanup runs once the JVM has ended.
func launch(java string, args []string, cleanup func()) (*server, error) {
	port, err := freePort()
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("start DynamoDB Local: no free port: %w", err)
	}
	// -sharedDb: one database whatever the client's key and region (AWS
	// documents -inMemory with it); -disableTelemetry: no outside network.
	args = append(append([]string(nil), args...), "-inMemory", "-sharedDb", "-disableTelemetry", "-port", strconv.Itoa(port))
	cmd := exec.Command(java, args...)
	s := &server{endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, logs: &ring{max: 30}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	// Own process group: a terminal's Ctrl-C reaches us, and we stop the JVM
	// in order. Pdeathsig: the JVM dies with us even when we are killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := procgroup.Start(cmd); err != nil {
		cleanup()
		return nil, fmt.Errorf("start DynamoDB Local: %w", err)
	}
	go func() {
		err := cmd.Wait()
		cleanup()
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
		procgroup.Stop(s.cmd, syscall.SIGTERM, DefaultStopTimeout, s.exited)
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

// waitReady polls ListTables until the endpoint answers. It gives up at
// once where waiting cannot help: an HTTP answer that is not DynamoDB's,
// a host name that does not resolve, the process exiting (exited closes);
// on refused connections after refusedGrace (an embedded JVM still
// starting refuses until it listens); on anything else when timeout
// passes or ctx ends.
func waitReady(ctx context.Context, c *dynamodb.Client, timeout, refusedGrace time.Duration, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var refusedSince time.Time
	for {
		callCtx, callCancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.ListTables(callCtx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		callCancel()
		if err == nil {
			return nil
		}
		if fatal := notDynamoDB(err); fatal != nil {
			return fatal
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			if refusedSince.IsZero() {
				refusedSince = time.Now()
			}
			if time.Since(refusedSince) >= refusedGrace {
				return fmt.Errorf("connection refused for %s: nothing listens on that port", refusedGrace.Round(100*time.Millisecond))
			}
		} else {
			refusedSince = time.Time{}
		}
		select {
		case <-exited:
			return errors.New("it exited")
		case <-ctx.Done():
			if ctx.Err() != context.DeadlineExceeded {
				return ctx.Err()
			}
			return fmt.Errorf("no answer to ListTables within %s: %v", timeout, err)
		case <-tick.C:
		}
	}
}

// notDynamoDB returns why err shows an endpoint that waiting will not
// fix, nil otherwise: an HTTP answer other than a gateway's "try later"
// (502, 503, 504), a host that does not exist.
func notDynamoDB(err error) error {
	var resp *awshttp.ResponseError
	if !errors.As(err, &resp) || resp.HTTPStatusCode() == 0 {
		var dns *net.DNSError
		if errors.As(err, &dns) && dns.IsNotFound {
			return fmt.Errorf("host %s not found", dns.Name)
		}
		return nil // no answer at all
	}
	code := resp.HTTPStatusCode()
	switch code {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return nil
	}
	var deser *smithy.DeserializationError
	if errors.As(err, &deser) {
		return fmt.Errorf("it answered ListTables with HTTP %d %s and a body that is not DynamoDB's JSON (%v)", code, http.StatusText(code), deser.Err)
	}
	return fmt.Errorf("it answered ListTables with HTTP %d %s (%v)", code, http.StatusText(code), resp.Err)
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

// userInfo is the user-info of a URL: what Redact hides.
var userInfo = regexp.MustCompile(`(?i)^([a-z][a-z0-9+.-]*://)[^/?#@]*@`)

// Redact is endpoint as it may be shown: a user name and password in it
// (http://user:secret@host) become ***, wherever the URL is printed or
// written.
func Redact(endpoint string) string { return userInfo.ReplaceAllString(endpoint, "${1}***@") }
