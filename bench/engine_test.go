package bench_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// invoicingDriver is a minimal driver over the invoicing design: clients
// are the pool; the mix views a client, bills it, and looks up an invoice
// that does not exist.
type invoicingDriver struct {
	table   invoicing.Table
	mu      sync.Mutex // fixtures are not safe for concurrent use
	fake    *fixtures.Invoicing
	clients []string
}

func newInvoicingDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &invoicingDriver{table: invoicing.Table{DB: db, Name: table}, fake: fixtures.NewInvoicing(seed)}
}

func (d *invoicingDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	for i := range n {
		c := d.fake.Client()
		if err := d.table.CreateClient(ctx, c); err != nil {
			return err
		}
		d.clients = append(d.clients, c.ID)
		progress(i+1, n)
	}
	return nil
}

func (d *invoicingDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	client := d.clients[key]
	switch p {
	case invoicing.ViewClientRecentInvoicesID:
		_, err := d.table.ViewClientRecentInvoices(ctx, client, 5, "")
		return err
	case invoicing.CreateInvoiceID:
		d.mu.Lock()
		inv, lines := d.fake.Invoice(client), d.fake.Lines(1+r.IntN(3))
		d.mu.Unlock()
		_, err := d.table.CreateInvoice(ctx, inv, lines)
		return err
	case invoicing.ViewInvoiceID:
		_, err := d.table.ViewInvoice(ctx, fmt.Sprintf("no-such-invoice-%d", key))
		return err
	}
	return fmt.Errorf("pattern %s: %w", p, designs.ErrInvalidInput)
}

// billing is a tiny scenario: 40 calls a second for 1.5 s.
func billing() workload.Scenario {
	return workload.Scenario{
		Name:     "invoicing/test-billing",
		About:    "a tiny mix, to prove the engine end to end",
		Design:   invoicing.Design,
		Pool:     20,
		Pacer:    vegeta.ConstantPacer{Freq: 40, Per: time.Second},
		Duration: 1500 * time.Millisecond,
		Mix: []workload.Step{
			{Pattern: invoicing.ViewClientRecentInvoicesID, Weight: 6, Keys: workload.Zipf{S: 1.2}},
			{Pattern: invoicing.CreateInvoiceID, Weight: 3},
			{Pattern: invoicing.ViewInvoiceID, Weight: 1},
		},
		Driver: newInvoicingDriver,
	}
}

// cancelling interrupts the run once after calls have finished, so that
// some were measured however slow the machine is.
type cancelling struct {
	workload.Driver
	calls  atomic.Int64
	after  int64
	cancel context.CancelFunc
	at     atomic.Int64 // when it cancelled, Unix nanoseconds
}

func (c *cancelling) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	err := c.Driver.Call(ctx, p, key, r)
	if c.calls.Add(1) == c.after {
		c.at.Store(time.Now().UnixNano())
		c.cancel()
	}
	return err
}

var _ = Describe("running a scenario on DynamoDB Local", Label("engine"), func() {
	It("paces the mix open-loop, measures every call and accounts its capacity", func(ctx SpecContext) {
		results, path := resultsTo()
		// The exact counts below hold only if every due call is sent and
		// finishes: a long drain lets a slow test bed finish them.
		out, err := bench.Run(ctx, raw, billing(), engine.Warmup(300*time.Millisecond), engine.Workers(8), engine.Drain(2*time.Minute),
			engine.Progress(GinkgoWriter), results)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Interrupted).To(BeFalse())
		Expect(out.ResultsErr).NotTo(HaveOccurred())
		Expect(out.Unsent+out.CutOff).To(BeZero(), "calls left unfinished: the test bed was too slow for this run")

		By("sending exactly the calls the pacer made due, 25 ms apart, each measured from its due time")
		calls := readCalls(path)
		Expect(calls).To(HaveLen(59), "calls due at 25 ms, 50 ms, … before 1.5 s")
		for i := 1; i < len(calls); i++ {
			Expect(calls[i].Timestamp.Sub(calls[i-1].Timestamp)).To(Equal(25 * time.Millisecond))
		}

		By("naming each call's pattern, operation and outcome as vegeta expects")
		seq := map[string]uint64{}
		for _, r := range calls {
			Expect(r.Seq).To(Equal(seq[r.Attack]), "Seq counts per pattern in order of intended time")
			seq[r.Attack]++
			Expect(r.URL).To(Equal("ddb://invoicing/" + r.Attack))
			switch designs.PatternID(r.Attack) {
			case invoicing.ViewClientRecentInvoicesID:
				Expect([]any{r.Method, r.Code, r.Error}).To(Equal([]any{"Query", uint16(200), ""}))
			case invoicing.CreateInvoiceID:
				Expect([]any{r.Method, r.Code, r.Error}).To(Equal([]any{"TransactWriteItems", uint16(200), ""}))
			case invoicing.ViewInvoiceID:
				Expect([]any{r.Method, r.Code, r.Error}).To(Equal([]any{"Query", uint16(engine.StatusRefused), "not found"}))
			default:
				Fail("unexpected attack " + r.Attack)
			}
		}
		Expect(out.Total.Requests).To(BeEquivalentTo(59))
		Expect(out.Patterns).To(HaveLen(3))
		var perPattern uint64
		for _, p := range out.Patterns {
			perPattern += p.Metrics.Requests
			Expect(p.Metrics.Requests).To(BeEquivalentTo(seq[string(p.ID)]))
		}
		Expect(perPattern).To(BeEquivalentTo(59))

		By("accounting the measured calls, not the seeding or the warm-up")
		Expect(out.Capacity.Requests).To(BeEquivalentTo(59))
		accounted := map[designs.PatternID]int64{}
		for _, p := range out.Capacity.Patterns {
			accounted[p.Pattern] = p.Calls
		}
		Expect(accounted).To(Equal(map[designs.PatternID]int64{
			invoicing.ViewClientRecentInvoicesID: int64(seq[string(invoicing.ViewClientRecentInvoicesID)]),
			invoicing.CreateInvoiceID:            int64(seq[string(invoicing.CreateInvoiceID)]),
			invoicing.ViewInvoiceID:              int64(seq[string(invoicing.ViewInvoiceID)]),
		}))
		Expect(out.Fidelity.Approximations).To(BeZero())
		Expect(out.Fidelity.StillUnsure).To(BeZero())

		By("deleting the table it created")
		_, err = raw.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(out.Table)})
		var missing *types.ResourceNotFoundException
		Expect(errors.As(err, &missing)).To(BeTrue(), "table %s is still there", out.Table)

		By("writing a report of the run that vegeta reads back")
		dir, err := report.Write(GinkgoT().TempDir(), out)
		Expect(err).NotTo(HaveOccurred())
		summary, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
		Expect(err).NotTo(HaveOccurred())
		for _, p := range out.Patterns {
			Expect(string(summary)).To(ContainSubstring("| %s | %s |", p.ID, p.Name))
		}
		var back vegeta.Metrics
		Expect(engine.ReadResults(filepath.Join(dir, report.ResultsFile), func(r *vegeta.Result) error { back.Add(r); return nil })).To(Succeed())
		Expect(back.Requests).To(Equal(out.Total.Requests))
	})

	It("stops cleanly when cancelled, and returns what it measured", func(ctx SpecContext) {
		sc := billing()
		sc.Duration = time.Minute
		run, cancel := context.WithCancel(ctx)
		// Interrupt once 10 measured calls have finished, however long seeding took.
		var c *cancelling
		sc.Driver = func(db designs.DB, table string, seed int64) workload.Driver {
			c = &cancelling{Driver: newInvoicingDriver(db, table, seed), after: 10, cancel: cancel}
			return c
		}
		results, path := resultsTo()
		out, err := bench.Run(run, raw, sc, engine.Warmup(0), engine.Progress(GinkgoWriter), results)
		Expect(err).NotTo(HaveOccurred())
		// How promptly is proven on an injected clock (bench/engine); here,
		// only that measuring stopped soon after the interrupt, however long
		// the calls before it took on a busy machine.
		Expect(c.at.Load()).NotTo(BeZero(), "the run ended before its tenth call")
		Expect(out.Started.Add(out.Elapsed).Sub(time.Unix(0, c.at.Load()))).To(BeNumerically("<", 15*time.Second))
		Expect(out.Interrupted).To(BeTrue())
		By("having written every call it measured to the results file, closed")
		calls := readCalls(path)
		Expect(calls).To(HaveLen(int(out.Total.Requests)))
		Expect(calls).NotTo(BeEmpty())
		for _, r := range calls {
			Expect(r.Error).NotTo(Equal("cancelled"), "calls cut short by the interrupt are not measured")
		}
		_, err = raw.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(out.Table)})
		var missing *types.ResourceNotFoundException
		Expect(errors.As(err, &missing)).To(BeTrue(), "table %s is still there", out.Table)
	})
})
