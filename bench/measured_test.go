package bench_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/workload"
)

var _ = Describe("the outcome of measured calls (NewOutcome)", Label("unit"), func() {
	schema := designs.Schema{PK: "PK", SK: "SK"}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	charged := func() *ledger.Ledger {
		l := ledger.NewLedger(schema)
		for i := range 10 {
			item := ddbitem.Item{"PK": s("A"), "SK": s(string(rune('a' + i)))}
			l.Observe(pricing.Observation{At: start, Pattern: "PutItem", Op: designs.PutItem, Writes: []pricing.Write{{After: item}}})
		}
		return l
	}
	measured := func(em *emulate.Emulator) bench.Measured {
		return bench.Measured{Outcome: engine.Outcome{Scenario: "endpoint", Started: start, Elapsed: time.Second, Duration: time.Second},
			Scenario: workload.Scenario{Design: designs.Design{Name: "t", Schema: schema}}, Limits: bench.Limits{Scale: 0.5},
			Ledger: charged(), Inputs: bench.ModelInputs{Requests: 10, Span: time.Second}, Emulator: em, Clients: true}
	}

	It("models clients' calls as the table's emulator was configured, their retries the clients'", func() {
		em := emulate.New(schema, emulate.Config{Settings: throughput.Settings{Scale: 0.5, WarmWrites: 8000}})
		out := bench.NewOutcome(measured(em))
		Expect(out.Clients).To(BeTrue())
		Expect(out.Limits.Scale).To(Equal(0.5))
		Expect(out.Capacity.Requests).To(Equal(int64(10)))
		Expect(out.Capacity.Scale).To(Equal(0.5), "the emulator's scale")
		Expect(out.Throttling).NotTo(BeNil())
		Expect(out.Throttling.ClientRetries).To(BeTrue(), "each attempt came as a call")
		Expect(out.Ledger).NotTo(BeNil())
	})

	It("models nothing without calls charged", func() {
		m := measured(nil)
		m.Inputs = bench.ModelInputs{}
		out := bench.NewOutcome(m)
		Expect(out.Ledger).To(BeNil())
		Expect(out.Capacity.Requests).To(BeZero())
		Expect(out.Throttling).To(BeNil())
		Expect(out.Limits.Scale).To(Equal(0.5), "the limits stand when nothing was measured")
	})
})
