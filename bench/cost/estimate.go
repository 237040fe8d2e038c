package cost

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/figure"
	"github.com/ddbharness/ddbharness/workload"
)

// run is what a plan makes DynamoDB do and hold.
type run struct {
	name              string
	schema            designs.Schema
	pool              int
	measuring, warmup int64 // calls of each phase
	shards            int
	lifetime          time.Duration // how long the table exists
	fixture           *fixture

	readCalls, writeCalls float64
	rru, wru              float64
	ran, steps            int // steps run in memory, of the mix's steps
}

// demand splits the calls over sc's mix by weight and adds up the request
// units they consume: what each step's calls consumed on the in-memory
// table where it serves them, else what perCall works out.
func (r *run) demand(ctx context.Context, sc workload.Scenario, seed int64) error {
	space, err := sc.KeySpace(r.fixture.driver)
	if err != nil {
		return fmt.Errorf("cost: %w", err)
	}
	weights := 0
	for _, st := range sc.Mix {
		weights += max(st.Weight, 0)
	}
	calls := float64(r.measuring + r.warmup)
	for i, st := range sc.Mix {
		if st.Weight <= 0 {
			continue
		}
		p, _ := sc.Design.Pattern(st.Pattern) // Validate found every one
		u, ok := r.fixture.measure(ctx, st, p, space[i], rand.New(rand.NewPCG(uint64(seed), uint64(i))))
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cost %s: %w", r.name, err)
		}
		r.steps++
		if ok {
			r.ran++
		} else if u, err = r.fixture.perCall(p); err != nil {
			return fmt.Errorf("cost %s: %w", r.name, err)
		}
		n := calls * float64(st.Weight) / float64(weights)
		if writes(p.Op) {
			r.writeCalls += n
		} else {
			r.readCalls += n
		}
		r.rru += n * u.rru
		r.wru += n * u.wru
	}
	return nil
}

// writes reports whether op writes.
func writes(op designs.Operation) bool {
	switch op {
	case designs.PutItem, designs.UpdateItem, designs.DeleteItem, designs.BatchWriteItem, designs.TransactWriteItems:
		return true
	}
	return false
}

// estimate prices the run by the table's billing mode.
func (r *run) estimate() (Estimate, error) {
	s, f := r.schema, r.fixture
	source, price := onDemandSource, func(perMillion float64) float64 { return perMillion / 1e6 }
	provisioned := s.Billing == types.BillingModeProvisioned
	if provisioned {
		if s.RCU < 1 || s.WCU < 1 {
			return Estimate{}, fmt.Errorf("cost %s: %w: provisioned with %d RCU and %d WCU: DynamoDB wants 1 or more of each",
				r.name, designs.ErrInvalidInput, s.RCU, s.WCU)
		}
		// Requests use the capacity paid by the hour: they cost nothing more.
		source, price = provisionedSource, func(float64) float64 { return 0 }
	}
	lines := []Line{
		line("reads: "+figure.Thousands(r.readCalls)+" calls", r.rru, "RRU", price(perMillionRRU), source),
		line("writes: "+figure.Thousands(r.writeCalls)+" calls", r.wru, "WRU", price(perMillionWRU), source),
		line("seed: "+figure.Thousands(f.seed.writes)+" item writes", f.seed.wru, "WRU", price(perMillionWRU), source),
	}
	if f.seed.reads > 0 {
		lines = append(lines, line("seed: "+figure.Thousands(f.seed.reads)+" reads back", f.seed.rru, "RRU", price(perMillionRRU), source))
	}
	if provisioned {
		// The table and each GSI carry the capacity; LSIs share the table's.
		n := int64(1 + len(s.GSIs))
		hours := int64(math.Ceil(r.lifetime.Hours()))
		held := fmt.Sprintf(" × %s × %d h", tables(len(s.GSIs)), hours)
		lines = append(lines,
			line(fmt.Sprintf("read capacity: %d RCU", s.RCU)+held, float64(s.RCU*n*hours), "RCU-hour", perRCUHour, source),
			line(fmt.Sprintf("write capacity: %d WCU", s.WCU)+held, float64(s.WCU*n*hours), "WCU-hour", perWCUHour, source))
	}
	gbMonths := float64(f.stored) / bytesPerGB * r.lifetime.Hours() / hoursPerMonth
	lines = append(lines, line("storage: "+figure.Bytes(f.stored)+" for "+r.lifetime.String(), gbMonths, "GB-month", perGBMonth, source))

	e := Estimate{Lines: lines, Basis: r.basis(source)}
	for _, l := range lines {
		e.Total += l.Dollars
	}
	return e, nil
}

func line(what string, units float64, unit string, price float64, source string) Line {
	return Line{What: what, Units: units, Unit: unit, Price: price, Dollars: units * price, Source: source}
}

// tables names what carries provisioned capacity: the table and its GSIs.
func tables(gsis int) string {
	switch gsis {
	case 0:
		return "table"
	case 1:
		return "(table + 1 GSI)"
	}
	return fmt.Sprintf("(table + %d GSIs)", gsis)
}

// basis says, for people, where the figures come from.
func (r *run) basis(source string) string {
	f := r.fixture
	mean := int64(0)
	if len(f.items) > 0 {
		mean = f.bytes / int64(len(f.items))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "estimate: %s list prices of %s (Standard table class, free tier ignored) from %s; ", PriceRegion, PriceDate, source)
	fmt.Fprintf(&b, "per-request units are estimated from the fixtures' sizes, not measured on DynamoDB: %s items seeded at pool %s, %s each on average; %d of %d patterns priced by running them on those items in memory, the rest by the unit rules on mean item and collection sizes; ",
		figure.Thousands(len(f.items)), figure.Thousands(r.pool), figure.Bytes(mean), r.ran, r.steps)
	fmt.Fprintf(&b, "%s calls from the pacer (%s in warm-up); the table lives %s, %s of it to create, seed and delete",
		figure.Thousands(r.measuring+r.warmup), figure.Thousands(r.warmup), r.lifetime, LifecycleAllowance)
	if r.shards > 1 {
		fmt.Fprintf(&b, "; for the whole run over %d shards: each shard prints this same estimate", r.shards)
	}
	return b.String()
}
