package testbed

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Environment variables about the endpoint and the cache, read here and
// nowhere else. The variables that stand in for a command's flags
// (MAX_COST for bench's --max-cost, the Makefile's SCENARIO, RATE...) are
// read by the command that owns the flag.
const (
	// EnvEndpoint is the SDK's own variable: when set, the harness uses that
	// endpoint and starts nothing.
	EnvEndpoint = "AWS_ENDPOINT_URL_DYNAMODB"
	// EnvCacheDir overrides where DynamoDB Local is installed (and verify
	// keeps its suites' test binaries).
	EnvCacheDir = "DDBHARNESS_CACHE_DIR"
	// EnvRunEndpoint is set by `ddbharness verify` for its suites: the
	// DynamoDB Local it started for the run. Suites use it as they would
	// EnvEndpoint; unlike a user's endpoint, it does not stop the launcher's
	// own specs from starting a DynamoDB Local of their own.
	EnvRunEndpoint = "DDBHARNESS_RUN_ENDPOINT"
	// EnvAllowRemote=1 lets the harness create and delete its own tables on a
	// non-loopback endpoint, such as real DynamoDB.
	EnvAllowRemote = "DDBHARNESS_ALLOW_REMOTE"
	// EnvHostile is set by `ddbharness verify --hostile` for its suites:
	// the fault seed. A design suite then sends its patterns' calls
	// through the standard profile of fault rules (internal/hostile).
	EnvHostile = "DDBHARNESS_HOSTILE"
)

// Env is what the environment says about the endpoint and the cache.
type Env struct {
	Endpoint    string // empty: start an embedded DynamoDB Local
	FromRunner  bool   // Endpoint is the run's own DynamoDB Local, not the user's
	CacheDir    string
	AllowRemote bool
	Hostile     string // the fault seed of a hostile verify run; empty: quiet
}

// LoadEnv reads the environment once per process; bad values fail loudly.
var LoadEnv = sync.OnceValues(func() (Env, error) {
	e := Env{Endpoint: os.Getenv(EnvEndpoint), CacheDir: os.Getenv(EnvCacheDir), Hostile: os.Getenv(EnvHostile)}
	if run := os.Getenv(EnvRunEndpoint); e.Endpoint == "" && run != "" {
		e.Endpoint, e.FromRunner = run, true
	}
	if e.Endpoint != "" {
		u, err := url.Parse(e.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Env{}, fmt.Errorf("%s=%q is not an endpoint URL: set it like http://127.0.0.1:8000, or unset it to start an embedded DynamoDB Local", EnvEndpoint, Redact(e.Endpoint))
		}
	}
	if v := os.Getenv(EnvAllowRemote); v != "" {
		ok, err := strconv.ParseBool(v)
		if err != nil {
			return Env{}, fmt.Errorf("%s=%q: want 1 or 0", EnvAllowRemote, v)
		}
		e.AllowRemote = ok
	}
	if e.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return Env{}, fmt.Errorf("no cache folder for DynamoDB Local (%v): set %s to a writable folder", err, EnvCacheDir)
		}
		e.CacheDir = filepath.Join(dir, "ddbharness")
	}
	return e, nil
})

// IsLoopback reports whether the endpoint is on this machine.
func IsLoopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// EndpointVar is the variable Endpoint came from: the run's own when
// verify set it for its suites, else the user's.
func (e Env) EndpointVar() string {
	if e.FromRunner {
		return EnvRunEndpoint
	}
	return EnvEndpoint
}

// Reach decides, for every command alike, whether the harness may send
// requests to endpoint: one on this machine always, any other only with
// the user's opt-in (DDBHARNESS_ALLOW_REMOTE=1). remote says it is off
// this machine; err, a *RemoteError naming the variable (or the words) the
// endpoint came from, says it may not be used.
func (e Env) Reach(endpoint, from string) (remote bool, err error) {
	if IsLoopback(endpoint) {
		return false, nil
	}
	if !e.AllowRemote {
		return true, &RemoteError{Var: from, Endpoint: endpoint}
	}
	return true, nil
}
