package helpdesk_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
)

// opened is a ticket of a fresh tenant in region, opened quietly.
func opened(ctx SpecContext, region string) helpdesk.Ticket {
	GinkgoHelper()
	v := fake.Ticket(fake.TenantID(), region)
	Expect(quiet.OpenTicket(ctx, v)).To(Succeed())
	return v
}

var _ = Describe("AP-04 assign ticket", Label("AP-04", "main-table"), func() {
	It("gives the ticket to the agent at the priority, pending, and puts it in the agent's queue", func(ctx SpecContext) {
		v, agent := opened(ctx, "eu"), fake.AgentID()
		want := v
		want.Agent, want.Priority, want.Status = agent, helpdesk.Urgent, helpdesk.Pending
		got, err := table.AssignTicket(ctx, v.ID, agent, helpdesk.Urgent)
		if env.Faulted(err) { // hostile verify: assigned whole or not at all
			Expect(quiet.GetTicket(ctx, v.ID)).To(BeElementOf(v, want))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
		Expect(quiet.GetTicket(ctx, v.ID)).To(Equal(want))
		Expect(agentQueue(ctx, v.Tenant, agent)).To(Equal([]helpdesk.Ticket{want}))
	})

	It("moves a reassigned ticket from one agent's queue to the other's", func(ctx SpecContext) {
		v, first, second := opened(ctx, "us"), fake.AgentID(), fake.AgentID()
		_, err := quiet.AssignTicket(ctx, v.ID, first, 3)
		Expect(err).NotTo(HaveOccurred())
		got, err := table.AssignTicket(ctx, v.ID, second, 2)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(agentQueue(ctx, v.Tenant, first)).To(BeEmpty())
		Expect(agentQueue(ctx, v.Tenant, second)).To(Equal([]helpdesk.Ticket{got}))
	})

	It("refuses a closed ticket with ErrClosed and an unknown one with ErrNotFound, changing nothing", func(ctx SpecContext) {
		v := opened(ctx, "ap")
		closed, err := quiet.CloseTicket(ctx, v.ID)
		Expect(err).NotTo(HaveOccurred())
		_, err = table.AssignTicket(ctx, v.ID, fake.AgentID(), 2)
		env.Refuses(err, helpdesk.ErrClosed)
		Expect(err).NotTo(MatchError(designs.ErrNotFound))
		Expect(quiet.GetTicket(ctx, v.ID)).To(Equal(closed))

		unknown := fake.Ticket(v.Tenant, "ap")
		_, err = table.AssignTicket(ctx, unknown.ID, fake.AgentID(), 2)
		env.Refuses(err, designs.ErrNotFound)
		Expect(env.Stored(ctx, unknown.Key())).To(BeFalse(), "an update of an unknown ticket must not create one")
	})

	DescribeTable("refuses bad input before any call",
		func(ctx SpecContext, agent string, priority int) {
			v := opened(ctx, "eu")
			_, err := table.AssignTicket(ctx, v.ID, agent, priority)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(quiet.GetTicket(ctx, v.ID)).To(Equal(v))
		},
		Entry("no agent", "", 2),
		Entry("priority 0", "agent-x", 0),
		Entry("priority 5", "agent-x", helpdesk.Low+1),
	)
})

var _ = Describe("AP-06 close ticket", Label("AP-06", "main-table"), func() {
	It("closes the ticket, takes it out of its agent's queue and into the closed part of its region's", func(ctx SpecContext) {
		v, agent := opened(ctx, "eu"), fake.AgentID()
		assigned, err := quiet.AssignTicket(ctx, v.ID, agent, 2)
		Expect(err).NotTo(HaveOccurred())
		got, err := table.CloseTicket(ctx, v.ID)
		if env.Faulted(err) { // hostile verify: closed whole or not at all
			Expect(quiet.GetTicket(ctx, v.ID)).To(BeElementOf(assigned, closedAs(assigned)))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(closedAs(assigned)))
		Expect(env.Item(ctx, v.Key())).NotTo(HaveKey("Agent"))
		Expect(agentQueue(ctx, v.Tenant, agent)).To(BeEmpty())
		Expect(regionQueue(ctx, helpdesk.RegionQuery{Tenant: v.Tenant, Region: "eu", Status: helpdesk.Closed})).To(Equal([]helpdesk.Ticket{got}))
		Expect(regionQueue(ctx, helpdesk.RegionQuery{Tenant: v.Tenant, Region: "eu", Status: helpdesk.Pending})).To(BeEmpty())
	})

	It("refuses a second close with ErrClosed and an unknown ticket with ErrNotFound", func(ctx SpecContext) {
		v := opened(ctx, "us")
		closed, err := quiet.CloseTicket(ctx, v.ID)
		Expect(err).NotTo(HaveOccurred())
		_, err = table.CloseTicket(ctx, v.ID)
		env.Refuses(err, helpdesk.ErrClosed)
		Expect(quiet.GetTicket(ctx, v.ID)).To(Equal(closed))

		_, err = table.CloseTicket(ctx, fake.Ticket(v.Tenant, "us").ID)
		env.Refuses(err, designs.ErrNotFound)
	})
})

// closedAs is v as CloseTicket stores it.
func closedAs(v helpdesk.Ticket) helpdesk.Ticket {
	v.Status, v.Agent = helpdesk.Closed, ""
	return v
}
