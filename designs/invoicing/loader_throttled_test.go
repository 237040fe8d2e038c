package invoicing_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// The fixtures' Loader seeding through package emulate's throttled
// client: a batch the emulator splits or refuses whole, as DynamoDB would,
// still ends with every item stored. (A pattern meeting a throttle or a
// conflict is hostile verify's profile, internal/hostile.)

var _ = Describe("seeding through the Loader, throttled", func() {
	It("retries the items its batches leave unprocessed until every item is stored", func(ctx SpecContext) {
		clock := ddbtest.NewClock()
		// 0.01: each of the 4 partitions serves 10 write units a second,
		// the table 40 (a new on-demand table's warm throughput, scaled).
		e := emulate.New(invoicing.Schema, emulate.Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}, Now: clock.Now})
		// The SDK's own retryer, as a seed has it.
		l := fixtures.NewLoader(e.Client(env.DB), env.Table, invoicing.Schema)
		seed := invoicing.Table{DB: l, Name: env.Table}

		// 3 clients with 5 invoices of 2 lines each: 66 items, folded in
		// memory until Flush.
		type created struct {
			client   invoicing.Client
			invoices []invoicing.Invoice
			lines    [][]invoicing.LineItem
		}
		clients := make([]created, 3)
		for i := range clients {
			c := created{client: fake.Client()}
			Expect(seed.CreateClient(ctx, c.client)).To(Succeed())
			for range 5 {
				lines := fake.Lines(2)
				inv, err := seed.CreateInvoice(ctx, fake.Invoice(c.client.ID), lines)
				Expect(err).NotTo(HaveOccurred())
				c.invoices, c.lines = append(c.invoices, inv), append(c.lines, lines)
			}
			clients[i] = c
		}

		// The first client's partition is two seconds in debt; the table
		// and the other partitions have units left, so the first batches
		// are split: that partition's items come back unprocessed.
		e.Enable()
		e.Debit(env.Table, []pricing.Charge{{Target: designs.MainTable, Key: invoicing.ClientPK(clients[0].client.ID), WCU: 30}})

		// Time stands still until the emulator first refuses (so the first
		// batch meets the drained partition), then runs 100 times faster
		// than the wall clock: the Loader's backoffs, and the SDK's when a
		// resent batch is refused whole, see the partitions refill.
		stop, ticking := make(chan struct{}), make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(ticking)
			step := time.Duration(0)
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
				if step == 0 && e.Measured(0, 0).Refused > 0 {
					step = 100 * time.Millisecond
				}
				clock.Add(step)
			}
		}()
		err := l.Flush(ctx)
		close(stop)
		<-ticking
		Expect(err).NotTo(HaveOccurred())

		m := e.Measured(0, 0)
		Expect(m.Unprocessed).To(BeNumerically(">", 0), "the emulator left items unprocessed: %+v", m.Patterns)
		Expect(m.Calls).To(BeNumerically(">", 3), "the Loader sent unprocessed items back: 66 items are 3 batches")
		GinkgoWriter.Printf("throttled: %+v\n", m.Patterns)
		for _, c := range clients {
			Expect(stored(ctx, invoicing.ClientPK(c.client.ID), invoicing.ClientSK(c.client.ID))).To(BeTrue())
			Expect(stored(ctx, invoicing.ClientEmailKey(c.client.Email), invoicing.ClientEmailKey(c.client.Email))).To(BeTrue())
			for i, inv := range c.invoices {
				Expect(invoiceStored(ctx, inv)).To(BeTrue(), "invoice %s", inv.ID)
				Expect(numberStored(ctx, inv.Number)).To(BeTrue(), "number %s", inv.Number)
				for _, ln := range c.lines[i] {
					Expect(lineStored(ctx, inv.ID, ln.ID)).To(BeTrue(), "invoice %s line %s", inv.ID, ln.ID)
				}
			}
		}
		Expect(l.Written()).To(Equal(66))
	})
})
var _ = Describe("seeding through the Loader, table throttled", func() {
	It("rides out a table that refuses whole batches past the SDK's three attempts, and never has them split", func(ctx SpecContext) {
		clock := ddbtest.NewClock()
		e := emulate.New(invoicing.Schema, emulate.Config{Settings: throughput.Settings{Scale: 0.01, Partitions: 4}, Now: clock.Now})
		l := fixtures.NewLoader(e.Client(env.DB), env.Table, invoicing.Schema) // the SDK's default retryer
		c := fake.Client()
		Expect(invoicing.Table{DB: l, Name: env.Table}.CreateClient(ctx, c)).To(Succeed())
		e.Enable()
		// The table's write budget (40 units a second at 0.01) is 10 s in
		// debt: DynamoDB refuses every batch whole (ThrottlingException, on
		// this on-demand table).
		// The debt lands on a partition none of the client's items is on:
		// that partition stays in debt four times as long (10 units a
		// second), and an item on it would be left unprocessed.
		e.Debit(env.Table, []pricing.Charge{{Target: designs.MainTable, Key: keyApart(4, invoicing.ClientPK(c.ID), invoicing.ClientEmailKey(c.Email)), WCU: 440}})
		// Time stands still, so every attempt meets the whole debt, until
		// the SDK's three attempts have been refused; then 20 s pass at
		// once and the table has units for the whole batch again. On the
		// real clock a resend could land as the debt ran out, with units
		// for some of the batch: a loaded machine's timing, not the SDK's.
		stop, ticking := make(chan struct{}), make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(ticking)
			for e.Measured(0, 0).Refused < 3 {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
			clock.Add(20 * time.Second)
		}()
		err := l.Flush(ctx)
		close(stop)
		<-ticking
		Expect(err).NotTo(HaveOccurred())
		Expect(stored(ctx, invoicing.ClientPK(c.ID), invoicing.ClientSK(c.ID))).To(BeTrue())
		t := e.Measured(0, 0)
		Expect(t.Refused).To(BeNumerically(">=", 3), "the SDK's three attempts were refused before the Loader backed off")
		Expect(t.Calls).To(BeNumerically(">", 1), "the Loader sent the batch again after the SDK gave up")
		Expect(t.Unprocessed).To(BeZero(), "refused whole, never split")
	}, SpecTimeout(time.Minute))
})

// keyApart is a partition key value that the emulator's parts partitions
// place apart from every one of pks.
func keyApart(parts int, pks ...string) string {
	GinkgoHelper()
	taken := map[int]bool{}
	for _, pk := range pks {
		taken[emulate.Placement(pk, parts)] = true
	}
	for i := 0; ; i++ {
		if k := fmt.Sprintf("elsewhere-%d", i); !taken[emulate.Placement(k, parts)] {
			return k
		}
	}
}
