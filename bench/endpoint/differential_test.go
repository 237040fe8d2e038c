package endpoint

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

var _ = Describe("the endpoint beside DynamoDB Local", Label("wire"), func() {
	It("answers every request of the corpus as DynamoDB Local does, byte for byte, at a generous scale", func(ctx SpecContext) {
		clock := ddbtest.NewClock()
		h := New(Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 100, Partitions: 4}, Now: clock.Now}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		direct, through := testbed.Client(local), testbed.Client(srv.URL)
		mine := designs.TableName("diffl", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		theirs := designs.TableName("diffe", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		// The four tables made, and deleted, at once: each waits on
		// DynamoDB Local alone.
		tables := []string{ddbtest.WireTables(mine)[0], ddbtest.WireTables(mine)[1], ddbtest.WireTables(theirs)[0], ddbtest.WireTables(theirs)[1]}
		each := func(f func(i int, t string) error) error {
			errs := make([]error, len(tables))
			var wg sync.WaitGroup
			for i, t := range tables {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = f(i, t)
				}()
			}
			wg.Wait()
			return errors.Join(errs...)
		}
		DeferCleanup(func(ctx SpecContext) {
			Expect(each(func(_ int, t string) error { return designs.DeleteTable(ctx, direct, t) })).To(Succeed())
		})
		Expect(each(func(i int, t string) error {
			if i >= 2 {
				return designs.CreateTable(ctx, through, ddbtest.WireSchema, t) // learnt by the endpoint from the client's own CreateTable
			}
			return designs.CreateTable(ctx, direct, ddbtest.WireSchema, t)
		})).To(Succeed())

		_, before, _, _ := h.Totals()
		client := &http.Client{}
		for i, c := range ddbtest.WireCorpus {
			// The two sides at once: each on its own tables.
			var want ddbtest.WireAnswer
			var werr error
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				want, werr = ddbtest.SendWire(client, local, mine, c)
			}()
			got, err := ddbtest.SendWire(client, srv.URL, theirs, c)
			<-sent
			Expect(werr).NotTo(HaveOccurred())
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "request %d: %s %.300s", i, c.Op, c.Body)
		}
		// A body the SDK's input cannot hold (a TransactItems that is no
		// list) passes through, and Local refuses it as DynamoDB would:
		// nothing is written, so there is nothing to decide. (PartiQL the
		// endpoint cannot read is counted apart, as Undecided, below.)
		var unreadable int64
		for _, c := range ddbtest.WireCorpus {
			if o, ok := dataPlane[c.Op]; ok && o.bind == nil {
				if _, _, err := o.decode([]byte(c.Body)); err != nil {
					unreadable++
				}
			}
		}
		Expect(unreadable).To(BeNumerically(">", 0), "the corpus holds a body the SDK's input cannot hold")
		_, passed, throttled, _ := h.Totals()
		Expect(throttled).To(BeZero(), "nothing throttled at this scale")
		Expect(passed-before).To(Equal(unreadable), "every call of the corpus decided but those Local refuses unread, none passed through")
		Expect(h.Undecided()).To(BeZero(), "PartiQL that names no single item, or that the endpoint cannot read, is refused by Local as DynamoDB refuses it, not passed undecided")
	})
})
