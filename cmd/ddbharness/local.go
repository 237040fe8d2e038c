package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/internal/figure"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// runLocal runs DynamoDB Local until interrupted, for people who want one
// instance across several commands; with --limits, behind an endpoint
// (bench/endpoint) that decides every data-plane call as the bench's
// emulator does. Both listen on 127.0.0.1 only (DynamoDB Local when this
// Java can build the loopback launcher, which it says).
func runLocal(ctx context.Context, fs *flag.FlagSet, args []string) error {
	p, err := planLocal(fs, args)
	if err != nil {
		return err
	}
	return p.serve(ctx)
}

// planLocal reads local's flags into fs and checks them, before DynamoDB
// Local starts.
func planLocal(fs *flag.FlagSet, args []string) (localPlan, error) {
	f := addLocalFlags(fs)
	var p localPlan
	err := noArgs(fs, args, func() (err error) {
		p, err = f.plan(fs)
		return err
	})
	return p, err
}

// localFlags are local's flags, read by plan once parsed.
type localFlags struct {
	limits      *onOff
	limitsScale *float64
	conflicts   *onOff
	port        *int
	root        *string
	faults      faultFlags
}

// addLocalFlags adds local's flags to fs.
func addLocalFlags(fs *flag.FlagSet) *localFlags {
	f := &localFlags{limits: limitsFlag(fs, false, "serve an endpoint in front of DynamoDB Local that throttles every data-plane call and conflicts transactions as DynamoDB does", "DynamoDB Local alone")}
	f.limitsScale = fs.Float64("limits-scale", 1, "with --limits: multiply every DynamoDB limit by this (0.01: a partition serves 30 RCU/s and 10 WCU/s), so throttling shows at rates a test drives")
	f.conflicts = conflictsFlag(fs, "with --limits, refuse writes of an item another request in flight holds, as DynamoDB's transaction conflicts do", "let them through")
	f.port = fs.Int("port", 0, "with --limits or --fault: the endpoint's port on 127.0.0.1 (0: a free one, printed)")
	f.root = fs.String("report", "reports", "with --limits or --fault: on Ctrl-C, write under this folder the report a bench writes (summary.md, metrics.json, heat.svg...) for each table's calls")
	f.faults.add(fs)
	return f
}

// localPlan is what local serves, every flag checked: the limits, the
// fault rules (nil for none), and the endpoint's port and report folder.
type localPlan struct {
	limits bench.Limits
	faults *fault.Set
	port   int
	root   string
}

// plan checks local's flags before DynamoDB Local starts.
func (f *localFlags) plan(fs *flag.FlagSet) (localPlan, error) {
	p := localPlan{port: *f.port, root: *f.root}
	var err error
	if p.limits, err = benchLimits("local", f.limits.on, *f.limitsScale); err != nil {
		return p, err
	}
	p.limits.NoConflicts = !f.conflicts.on
	if p.port < 0 || p.port > 65535 {
		return p, badInputf("local: --port=%d (PORT): want a TCP port, 1 to 65535, or 0 for a free one", p.port)
	}
	if p.faults, err = f.faults.set("local"); err != nil {
		return p, err
	}
	return p, p.endpointFlags(fs)
}

// endpointFlags refuses, with the limits off, the flags only the endpoint
// reads (all but --limits; with fault rules, the limits' own): they would
// be ignored without a word.
func (p localPlan) endpointFlags(fs *flag.FlagSet) error {
	if !p.limits.Off {
		return nil
	}
	var set []string
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "limits":
		case p.faults != nil && f.Name != "limits-scale" && f.Name != "conflicts":
		default:
			set = append(set, "--"+f.Name)
		}
	})
	switch {
	case len(set) > 0 && p.faults != nil:
		return badInputf("local: %v apply to the limits: add --limits (LIMITS=on), or leave them out", set)
	case len(set) > 0:
		return badInputf("local: %v apply to the endpoint --limits or --fault serves: add --limits (LIMITS=on) or a rule, or leave them out", set)
	}
	return nil
}

// serve starts DynamoDB Local and waits for Ctrl-C, behind the endpoint
// when the limits or fault rules need it (they need it with the limits
// or without them).
func (p localPlan) serve(ctx context.Context) error {
	var lis net.Listener
	if !p.limits.Off || p.faults != nil { // before DynamoDB Local starts: a port in use, a report that cannot be written are bad input, said at once
		var err error
		if lis, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port))); err != nil {
			return badInputf("local: --port=%d: cannot listen on 127.0.0.1:%d (%v): choose another port, or 0 for a free one", p.port, p.port, err)
		}
		defer lis.Close()
		if err := writableReport(p.root); err != nil {
			return err
		}
	}
	srv, err := startDynamo(ctx)
	if err != nil {
		return err
	}
	defer srv.Stop()
	if lis == nil {
		where := ""
		if srv.LoopbackOnly {
			where = " (this machine only)"
		}
		fmt.Fprintf(os.Stderr, "DynamoDB Local is ready on %s%s. In another shell:\n  export %s=%s\nCtrl-C stops it.\n",
			srv.Endpoint, where, testbed.EnvEndpoint, srv.Endpoint)
		return waitLocal(ctx, srv)
	}
	if srv.Remote() {
		return badInputf("local: --limits forwards to DynamoDB Local, not to %s: unset %s", testbed.Redact(srv.Endpoint), testbed.EnvEndpoint)
	}
	return serveLimits(ctx, srv, lis, p.root, endpoint.Config{Local: srv.Endpoint, Off: p.limits.Off, Faults: p.faults,
		Limits: emulate.Config{Settings: throughput.Settings{Scale: p.limits.Scale}, NoConflicts: p.limits.NoConflicts}})
}

// serveLimits serves the endpoint on lis until interrupted, with a line a
// second while calls come, and then writes the report of each table's
// calls under root.
func serveLimits(ctx context.Context, srv *testbed.Server, lis net.Listener, root string, cfg endpoint.Config) error {
	endpoint.SetProcs()
	h := endpoint.New(cfg)
	hs := endpoint.Server(h, endpoint.HeaderTimeout, endpoint.BodyTimeout)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(lis) }()
	url := "http://" + lis.Addr().String()
	if cfg.Faults != nil {
		fmt.Fprint(os.Stderr, describeFaults(cfg.Faults))
	}
	fmt.Printf("endpoint: %s\n", url)
	what := fmt.Sprintf("throttled as DynamoDB would, at %v of its limits", cfg.Limits.Scale)
	if cfg.Off {
		what = "with its fault rules, no limits"
	}
	fmt.Fprintf(os.Stderr, "DynamoDB Local (%s) %s. In another shell:\n  export %s=%s\nCtrl-C stops it.\n",
		srv.Endpoint, what, testbed.EnvEndpoint, url)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var err error
	for done := false; !done; {
		select {
		case <-tick.C:
			if line := h.Line(); line != "" {
				fmt.Fprintln(os.Stderr, line)
			}
			continue
		case <-ctx.Done():
		case <-srv.Done():
			err = testBedFailed(srv.Exit())
		case err = <-served:
			err = testBedFailed(fmt.Errorf("the endpoint stopped serving: %w", err))
		}
		done = true
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := hs.Shutdown(shut); serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		hs.Close()
	}
	requests, passed, throttled, conflicts := h.Totals()
	fmt.Fprintf(os.Stderr, "endpoint: %s data-plane calls, %s throttled, %s transaction conflicts; %s other calls passed through\n",
		figure.Thousands(requests), figure.Thousands(throttled), figure.Thousands(conflicts), figure.Thousands(passed))
	for i, f := range h.Faults().Status() {
		fmt.Fprintf(os.Stderr, "fault %d: %s matched, %s hit (%s)\n", i+1, figure.Thousands(f.Matched), figure.Thousands(f.Hits), f.Rule)
	}
	if n := h.Undecided(); n > 0 {
		fmt.Fprintf(os.Stderr, "endpoint: %s data-plane calls passed through undecided, neither metered nor throttled (PartiQL the endpoint cannot read, which DynamoDB Local ran)\n", figure.Thousands(n))
	}
	dirs, rerr := h.Report(root)
	for _, d := range dirs {
		fmt.Fprintf(os.Stderr, "report: %s\n", d)
	}
	if rerr != nil && err == nil {
		// Not a clean stop: the run's report is lost, and the exit code says so.
		err = fmt.Errorf("local: the report under --report=%s could not be written whole: %w: %w", root, rerr, errReportLost)
	} else if rerr != nil {
		fmt.Fprintf(os.Stderr, "ddbharness: local: the report under --report=%s could not be written whole: %v\n", root, rerr)
	}
	return err
}

// writableReport makes the report folder root, and writes a file in it,
// before the run: a folder that cannot be written (a file, a path under
// a file, a dangling link, no permission) is bad input, said at start,
// not found at Ctrl-C with the run's report lost.
func writableReport(root string) error {
	if strings.TrimSpace(root) == "" {
		return badInputf("local: --report is empty: name a folder for the report, like reports (the default)")
	}
	fail := func(err error) error {
		return badInputf("local: --report=%s cannot hold the report (%v): name a folder you can write, or one that does not exist yet", root, err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fail(err)
	}
	f, err := os.CreateTemp(root, ".ddbharness-write-check-*")
	if err != nil {
		return fail(err)
	}
	name := f.Name()
	_, werr := f.WriteString("ddbharness checks it can write here\n")
	cerr := f.Close()
	os.Remove(name)
	if err := errors.Join(werr, cerr); err != nil {
		return fail(err)
	}
	return nil
}

// waitLocal waits for Ctrl-C, or DynamoDB Local's end.
func waitLocal(ctx context.Context, srv *testbed.Server) error {
	select {
	case <-ctx.Done():
		return nil
	case <-srv.Done():
		return testBedFailed(srv.Exit())
	}
}
