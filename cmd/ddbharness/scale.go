package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/cost"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/workload"
)

// EnvMaxCost is the cost gate's limit in US dollars, as MAX_COST.
const EnvMaxCost = "MAX_COST"

// DefaultMaxCost is the cost gate's limit when the user sets none: enough
// for the seed designs' default scenarios, little enough that a mistaken
// rate or duration stops before it costs real money.
const DefaultMaxCost = 1.0

// emulatedCreation is how long a table reads CREATING on a remote
// endpoint that is not AWS (a DynamoDB Local elsewhere) with limits on, so
// that the run waits for it as it would on AWS. Real tables take seconds
// to minutes; AWS publishes no figure.
const emulatedCreation = time.Second

// maxStartAhead bounds --start both ways: the shards of a run start
// together, and a late one within its run's window still joins it.
const maxStartAhead = 24 * time.Hour

// scale is how a run is spread and what it may cost: its shard, whether
// the table is kept, and the cost gate's limit.
type scale struct {
	shard    engine.ShardSpec
	keep     bool
	maxCost  float64
	limitsOn bool // --limits was given on the command line
	// baseline is set when the run writes or checks a baseline of per-call
	// figures (baselineRun).
	baseline bool
}

// maxCostEnv reads MAX_COST once: the flag's default, and whether the
// variable is unusable (empty is unset).
var maxCostEnv = sync.OnceValues(func() (float64, error) {
	v := os.Getenv(EnvMaxCost)
	if v == "" {
		return DefaultMaxCost, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return DefaultMaxCost, badInputf("bench: %s=%q: want a number of US dollars, like 5", EnvMaxCost, v)
	}
	return f, nil
})

func defaultMaxCost() float64 {
	v, _ := maxCostEnv()
	return v
}

// scalePlan reads --shard, --run, --start, --keep-table and --max-cost.
func scalePlan(fs *flag.FlagSet, shard, run, start string, keep bool, maxCost float64, scenarios int) (scale, error) {
	p := scale{shard: engine.ShardSpec{I: 1, N: 1, Run: run}, keep: keep, maxCost: maxCost}
	fs.Visit(func(f *flag.Flag) { p.limitsOn = p.limitsOn || f.Name == "limits" })
	if _, err := maxCostEnv(); err != nil {
		return p, err
	}
	if math.IsNaN(maxCost) || math.IsInf(maxCost, 0) || maxCost < 0 {
		return p, badInputf("bench: --max-cost=%v (%s): want US dollars, 0 or more, like 5", maxCost, EnvMaxCost)
	}
	if shard != "" {
		i, n, ok := strings.Cut(shard, "/")
		var err1, err2 error
		p.shard.I, err1 = strconv.Atoi(i)
		p.shard.N, err2 = strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil {
			return p, badInputf("bench: --shard=%q (SHARD): want I/N, this shard's number and how many there are, like 2/4", shard)
		}
	}
	if start != "" {
		at, err := time.Parse(time.RFC3339, start)
		if err != nil {
			return p, badInputf("bench: --start=%q (START): want an instant in RFC 3339, like %s", start, time.Now().UTC().Add(5*time.Minute).Truncate(time.Minute).Format(time.RFC3339))
		}
		if ahead := time.Until(at); ahead > maxStartAhead || ahead < -maxStartAhead {
			return p, badInputf("bench: --start=%s (START): want an instant within 24h of now (it is %s); a run that far off is a typo", start, time.Now().UTC().Format(time.RFC3339))
		}
		p.shard.Start = at
	}
	if err := p.shard.Check(); err != nil {
		return p, badInputf("bench: %v", err)
	}
	if p.shard.Run != "" && scenarios != 1 {
		return p, badInputf("bench: --run=%s: a named (sharded) run is one scenario; name exactly one", p.shard.Run)
	}
	return p, nil
}

// remoteLimits settles the limits for where the run goes. Real DynamoDB
// throttles for itself: the emulator is off there unless asked for, and
// asking is refused, since every call would be throttled twice. On
// another remote endpoint (a DynamoDB Local elsewhere) the emulator stays
// on and plays table creation too.
func remoteLimits(lim bench.Limits, srv *testbed.Server, p scale) (bench.Limits, error) {
	if p.shard.Sharded() {
		lim.Share = 1 / float64(p.shard.N)
	}
	switch {
	case !srv.Remote():
	case testbed.IsAWS(srv.Endpoint) && p.limitsOn && !lim.Off:
		return lim, badInputf("bench: --limits=on (LIMITS) on %s: real DynamoDB throttles for itself, and the emulator would throttle every call a second time; leave LIMITS unset there", srv.Where())
	case testbed.IsAWS(srv.Endpoint):
		lim.Off = true
	case !lim.Off:
		lim.Creating = emulatedCreation
	}
	return lim, nil
}

// costGate prints what the run will cost on a remote endpoint and refuses
// it above the plan's limit, before anything is created.
func costGate(ctx context.Context, sc workload.Scenario, lim bench.Limits, p scale) error {
	warm := engine.DefaultWarmup
	est, err := cost.Of(ctx, cost.Plan{Scenario: sc, Duration: sc.Duration, Warmup: warm, RandomSeed: engine.DefaultRandomSeed, Shards: p.shard.N})
	if err != nil {
		return badInputf("bench %s: the cost gate cannot estimate this run: %v", sc.Name, err)
	}
	fmt.Fprintf(os.Stderr, "%s: what this run will cost (the whole run, all shards):\n", sc.Name)
	if err := est.Write(os.Stderr); err != nil {
		return err
	}
	if est.Total > p.maxCost {
		return badInputf("bench %s: the run would cost about $%.2f, above the limit of $%.2f: shorten it (DURATION, RATE), or raise the limit with %s=%.0f (or --max-cost)",
			sc.Name, est.Total, p.maxCost, EnvMaxCost, math.Ceil(est.Total))
	}
	fmt.Fprintf(os.Stderr, "%s: about $%.4f, within the limit of $%.2f (%s)\n", sc.Name, est.Total, p.maxCost, EnvMaxCost)
	return nil
}
