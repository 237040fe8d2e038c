package endpoint

import (
	"fmt"
	"net/http"
	"net/http/httptest"

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
		for i := range 2 {
			mine, theirs := ddbtest.WireTables(mine)[i], ddbtest.WireTables(theirs)[i]
			Expect(designs.CreateTable(ctx, direct, ddbtest.WireSchema, mine)).To(Succeed())
			DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, mine)).To(Succeed()) })
			Expect(designs.CreateTable(ctx, through, ddbtest.WireSchema, theirs)).To(Succeed())
			DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, theirs)).To(Succeed()) })
		}

		_, before, _, _ := h.Totals()
		client := &http.Client{}
		for i, c := range ddbtest.WireCorpus {
			want, err := ddbtest.SendWire(client, local, mine, c)
			Expect(err).NotTo(HaveOccurred())
			got, err := ddbtest.SendWire(client, srv.URL, theirs, c)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "request %d: %s %.300s", i, c.Op, c.Body)
		}
		_, passed, throttled, _ := h.Totals()
		Expect(throttled).To(BeZero(), "nothing throttled at this scale")
		Expect(passed).To(Equal(before), "every call of the corpus decided, none passed through")
		Expect(h.Undecided()).To(BeEquivalentTo(2), "but the PartiQL DELETE without the whole key and the statement Local refuses")
	})
})
