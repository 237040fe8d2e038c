package helpdesk_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("AP-01 open ticket", Label("AP-01", "main-table"), func() {
	It("stores the ticket open and unassigned under its own key", func(ctx SpecContext) {
		v := fake.Ticket(fake.TenantID(), "eu")
		v.Agent, v.Status = "someone", helpdesk.Closed // what the caller says of both is ignored
		err := table.OpenTicket(ctx, v)
		if env.Faulted(err) { // hostile verify: written whole or not at all
			return
		}
		Expect(err).NotTo(HaveOccurred())
		want := v
		want.Agent, want.Status = "", helpdesk.Open
		Expect(quiet.GetTicket(ctx, v.ID)).To(Equal(want))
		Expect(env.Item(ctx, v.Key())).NotTo(HaveKey("Agent"), "an open ticket is in no agent's queue")
	})

	It("lets exactly one of many concurrent opens of one ID win", func(ctx SpecContext) {
		tenant := fake.TenantID()
		racers := make([]helpdesk.Ticket, 10)
		for i := range racers {
			racers[i] = fake.Ticket(tenant, "us")
			racers[i].ID = racers[0].ID
		}
		winner := env.OnlyWinner(ddbtest.Race(len(racers), func(i int) error {
			return table.OpenTicket(ctx, racers[i])
		}), designs.ErrAlreadyExists)
		Expect(quiet.GetTicket(ctx, racers[0].ID)).To(Equal(racers[winner]))
	})

	DescribeTable("refuses a ticket an index would silently leave out, or that breaks a rule, before writing",
		func(ctx SpecContext, change func(v *helpdesk.Ticket)) {
			v := fake.Ticket(fake.TenantID(), "ap")
			change(&v)
			Expect(table.OpenTicket(ctx, v)).To(MatchError(designs.ErrInvalidInput))
			Expect(env.Stored(ctx, v.Key())).To(BeFalse())
		},
		Entry("without an ID", func(v *helpdesk.Ticket) { v.ID = "" }),
		Entry("without a tenant", func(v *helpdesk.Ticket) { v.Tenant = "" }),
		Entry("without a region", func(v *helpdesk.Ticket) { v.Region = "" }),
		Entry("without a subject", func(v *helpdesk.Ticket) { v.Subject = "" }),
		Entry("without an opening time", func(v *helpdesk.Ticket) { v.OpenedAt = 0 }),
		Entry("with priority 0", func(v *helpdesk.Ticket) { v.Priority = 0 }),
		Entry("with priority 5", func(v *helpdesk.Ticket) { v.Priority = helpdesk.Low + 1 }),
	)
})

var _ = Describe("AP-02 get ticket", Label("AP-02", "main-table"), func() {
	It("returns the ticket as it was opened", func(ctx SpecContext) {
		v := fake.Ticket(fake.TenantID(), "eu")
		Expect(quiet.OpenTicket(ctx, v)).To(Succeed())
		env.Answers(table.GetTicket(ctx, v.ID))(v)
	})

	It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
		_, err := table.GetTicket(ctx, "no-such-ticket")
		env.Refuses(err, designs.ErrNotFound)
	})
})
