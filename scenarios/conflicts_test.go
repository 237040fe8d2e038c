package scenarios_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testnet"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

var conflictSpecs = Label("dynamodb", "conflicts")

// twinDB sends, when armed, a twin of the next TransactWriteItems first:
// the same actions, through the gate, which holds it in flight; then the
// call's own, which DynamoDB would refuse for the twin's items.
type twinDB struct {
	designs.DB
	held  designs.DB // through the gate
	gate  *testnet.Gate
	armed atomic.Bool
	twin  chan error // the twin's outcome, once let go
}

func (t *twinDB) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if t.armed.CompareAndSwap(true, false) {
		twin := *in
		twin.ClientRequestToken = aws.String("twin-" + aws.ToString(in.ClientRequestToken))
		go func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*heldBound)
			defer cancel()
			_, err := t.held.TransactWriteItems(ctx, &twin)
			t.twin <- err
		}()
		select {
		case <-t.gate.Entered:
		case <-time.After(heldBound):
			return nil, errors.New("the twin transaction never reached the wire")
		}
	}
	return t.DB.TransactWriteItems(ctx, in, opts...)
}

// heldBound is how long a held request may take to reach the wire, or to
// end once let go, on a loaded machine.
const heldBound = 10 * time.Second

// transactional lists a design's patterns that write in a transaction.
func transactional(d designs.Design) []designs.PatternID {
	var out []designs.PatternID
	for _, p := range d.Patterns {
		if p.Op == designs.TransactWriteItems {
			out = append(out, p.ID)
		}
	}
	return out
}

var _ = Describe("the designs under transaction conflicts", conflictSpecs, func() {
	for _, sc := range scenarios.Defaults() {
		d := sc.Design
		It(d.Name+": each pattern that writes in a transaction, in conflict with one in flight on its items, writes nothing and ends in ErrConflict", Label(d.Label()), func(ctx SpecContext) {
			table := newTable(ctx, d, "conflicts")
			// Limits far above the calls': conflicts alone refuse. The clock
			// stands still, so the twin held at the gate stays within its
			// hold on DynamoDB however long this machine takes.
			e := emulate.New(d.Schema, emulate.Config{Settings: throughput.Settings{Scale: 1000}, Now: ddbtest.NewClock().Now})
			plain := e.Client(dynamodb.New(db.Options()))
			tw := &twinDB{DB: plain, twin: make(chan error, 1)}
			drv := sc.Driver(tw, table, seed())
			Expect(drv.Seed(ctx, 12, func(int, int) {})).To(Succeed())
			e.Enable()

			for _, p := range transactional(d) {
				By(string(p))
				reached := false
				// A call may end before its transaction (nothing of the
				// run's to act on): the next key, or a round of every
				// pattern, gives it something.
				for round := 0; round < 3 && !reached; round++ {
					for key := 0; key < 4 && !reached; key++ {
						reached = conflictOnce(ctx, e, tw, drv, table, p, key)
					}
					if !reached {
						for _, q := range d.Patterns {
							if q.ID != p {
								_ = drv.Call(ctx, q.ID, round, rand.New(rand.NewPCG(uint64(round), 1)))
							}
						}
					}
				}
				Expect(reached).To(BeTrue(), "%s never reached its transaction", p)
			}
		})
	}
})

// conflictOnce calls p on the key-th entity with a twin of its transaction
// held in flight, and checks what a conflict does to it; false when the
// call ended before any transaction.
func conflictOnce(ctx context.Context, e *emulate.Emulator, tw *twinDB, drv workload.Driver, table string, p designs.PatternID, key int) bool {
	GinkgoHelper()
	tw.gate = testnet.NewGate(db.Options().HTTPClient)
	tw.held = e.Client(dynamodb.New(db.Options(), func(o *dynamodb.Options) { o.HTTPClient = tw.gate; o.RetryMaxAttempts = 1 }))
	defer tw.gate.Release()
	tw.armed.Store(true)
	before, refusedBefore := scanAll(ctx, table), e.Measured(0, 0).ConflictCancelled
	err := drv.Call(ctx, p, key, rand.New(rand.NewPCG(7, 7)))
	if tw.armed.Swap(false) {
		return false
	}
	after := scanAll(ctx, table)
	tw.gate.Release()
	var twinErr error
	select {
	case twinErr = <-tw.twin:
	case <-time.After(heldBound):
		twinErr = errors.New("the twin did not end")
	}

	Expect(err).To(MatchError(designs.ErrTransactionConflict), "%s: in conflict with the twin in flight", p)
	Expect(errors.Is(err, designs.ErrConflict) && !errors.Is(err, designs.ErrRefused)).To(BeTrue(), "%s: an ErrConflict, not a domain refusal: %v", p, err)
	status, class := engine.Classify(err)
	Expect([]any{status, class}).To(Equal([]any{uint16(engine.StatusConflict), "transaction conflict"}), "%s: what bench reports", p)
	Expect(after).To(Equal(before), "%s: its transactions, cancelled for the conflict, wrote nothing", p)
	Expect(e.Measured(0, 0).ConflictCancelled-refusedBefore).To(BeEquivalentTo(designs.ConflictRetries+1), "%s: each sending was cancelled", p)
	Expect(designs.IsTransactionConflict(twinErr)).To(BeFalse(), "%s: the twin, let go, is not in conflict: %v", p, twinErr)
	return true
}
