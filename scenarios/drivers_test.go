package scenarios_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// outcomes are the domain results the scenarios' mixes make likely, per
// design and pattern: a lost race, a drained stock, a call that finds
// nothing of the run's to act on; beside them, those a driver names
// itself (workload.Likely: an imported model's writes). Any other error
// is a fault.
var outcomes = map[string]map[designs.PatternID][]error{
	invoicing.Design.Name: {
		invoicing.UpdateInvoiceID: {designs.ErrConflict},
		invoicing.UpdateClientID:  {designs.ErrConflict},
	},
	shop.Design.Name: {
		shop.PlaceOrderID: {shop.ErrOutOfStock},
	},
	accountpool.Design.Name: {
		accountpool.CreateLeaseID:          {accountpool.ErrAccountNotAvailable, accountpool.ErrUserHasLease},
		accountpool.DeleteLeaseID:          {accountpool.ErrLeaseNotActive},
		accountpool.GetLeaseID:             {designs.ErrNotFound},
		accountpool.MarkAccountAvailableID: {accountpool.ErrAccountLeased},
		accountpool.RemoveAccountID:        {designs.ErrNotFound},
	},
	agencies.Design.Name: {
		agencies.DeleteAgencyID: {designs.ErrNotFound},
		agencies.DeleteMemberID: {designs.ErrNotFound},
	},
	services.Design.Name: {
		services.GetServiceID:        {designs.ErrNotFound},
		services.UpdateServiceID:     {designs.ErrNotFound},
		services.RescheduleServiceID: {designs.ErrNotFound, designs.ErrConflict},
		services.DeleteServiceID:     {designs.ErrNotFound},
		services.IssueVoucherID:      {designs.ErrNotFound, designs.ErrAlreadyExists},
		services.FulfilVoucherID:     {designs.ErrNotFound},
	},
	helpdesk.Design.Name: {
		helpdesk.AssignTicketID: {helpdesk.ErrClosed},
		helpdesk.CloseTicketID:  {helpdesk.ErrClosed},
	},
}

func expected(d workload.Driver, design string, p designs.PatternID, err error) bool {
	if l, ok := d.(workload.Likely); ok && l.Likely(p, err) {
		return true
	}
	for _, want := range outcomes[design][p] {
		if errors.Is(err, want) {
			return true
		}
	}
	return false
}

// call is one Call a spec made and what came back.
type call struct {
	pattern designs.PatternID
	key     int
	err     error
}

// edgeKeys are the keys a spec calls one at a time on a pool of n: the
// first two and the last, where a driver that reads a key as an index into
// the wrong pool fails.
func edgeKeys(n int) []int {
	keys := []int{0}
	for _, k := range []int{1, n - 1} {
		if k > 0 && k < n && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// drawKey draws a key for st as the engine does: by its distribution, from
// the n keys of its pool.
func drawKey(st workload.Step, n int, r *rand.Rand) int {
	if st.Keys == nil {
		return workload.Uniform{}.Pick(r, n)
	}
	return st.Keys.Pick(r, n)
}

// scenarioEntries is one entry per scenario of scs, labelled with its
// design so that a run narrowed to one design keeps its entries.
func scenarioEntries(scs []workload.Scenario) []TableEntry {
	var out []TableEntry
	for _, sc := range scs {
		out = append(out, Entry(sc.Name, Label(sc.Design.Label()), sc))
	}
	return out
}

var _ = Describe("scenario drivers", driverSpecs, func() {
	DescribeTable("seed a pool, then run every step of the mix, one call at a time and then all at once",
		func(ctx SpecContext, sc workload.Scenario) {
			const pool, workers, each = 20, 8, 4
			d := sc.Driver(db, newTable(ctx, sc.Design, "driver"), seed())
			Expect(d.Seed(ctx, pool, nil)).To(Succeed())
			space, err := sc.KeySpace(d)
			Expect(err).NotTo(HaveOccurred())

			// One call at a time, twice over the mix, each call on a
			// stream of its own as the engine gives it: what one call
			// creates must not collide with another's.
			var calls []call
			var n uint64
			for range 2 {
				for i, st := range sc.Mix {
					for _, key := range edgeKeys(space[i]) {
						n++
						r := rand.New(rand.NewPCG(uint64(seed()), 1<<63|n))
						calls = append(calls, call{st.Pattern, key, d.Call(ctx, st.Pattern, key, r)})
					}
				}
			}

			work := make(chan call)
			var mu sync.Mutex
			var wg sync.WaitGroup
			for w := range workers {
				r := rand.New(rand.NewPCG(uint64(seed()), uint64(w+1)))
				wg.Go(func() {
					for c := range work {
						c.err = d.Call(ctx, c.pattern, c.key, r)
						mu.Lock()
						calls = append(calls, c)
						mu.Unlock()
					}
				})
			}
			r := rand.New(rand.NewPCG(uint64(seed()), 99))
			for range each {
				for i, st := range sc.Mix {
					work <- call{pattern: st.Pattern, key: drawKey(st, space[i], r)}
				}
			}
			close(work)
			wg.Wait()

			succeeded := map[designs.PatternID]int{}
			failed := map[designs.PatternID]map[string]int{} // the errors of each pattern's calls, counted
			for _, c := range calls {
				if c.err == nil {
					succeeded[c.pattern]++
					continue
				}
				if failed[c.pattern] == nil {
					failed[c.pattern] = map[string]int{}
				}
				failed[c.pattern][c.err.Error()]++
				Expect(expected(d, sc.Design.Name, c.pattern, c.err)).To(BeTrue(), "%s %s on key %d: %v", sc.Name, c.pattern, c.key, c.err)
			}
			for _, st := range sc.Mix {
				Expect(succeeded[st.Pattern]).To(BeNumerically(">", 0), "%s %s never succeeded; its calls' errors, counted: %v", sc.Name, st.Pattern, failed[st.Pattern])
			}
			Expect(d.Call(ctx, "AP-99", 0, r)).To(MatchError(scenarios.ErrUnknownPattern))
		},
		scenarioEntries(scenarios.All),
	)
})
