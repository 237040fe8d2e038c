package helpdesk_test

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/helpdesk"
)

// regionQueue is one whole page of q, read quietly.
func regionQueue(ctx SpecContext, q helpdesk.RegionQuery) []helpdesk.Ticket {
	GinkgoHelper()
	q.Size = helpdesk.MaxPageSize
	p, err := quiet.ListRegion(ctx, q)
	Expect(err).NotTo(HaveOccurred())
	Expect(p.Next).To(BeEmpty())
	return p.Tickets
}

// agentQueue is the agent's whole queue, read quietly.
func agentQueue(ctx SpecContext, tenant, agent string) []helpdesk.Ticket {
	GinkgoHelper()
	p, err := quiet.AgentQueue(ctx, tenant, agent, 0, helpdesk.MaxPageSize, "")
	Expect(err).NotTo(HaveOccurred())
	Expect(p.Next).To(BeEmpty())
	return p.Tickets
}

// openAll opens vs quietly, in order, and returns them.
func openAll(ctx SpecContext, vs ...helpdesk.Ticket) []helpdesk.Ticket {
	GinkgoHelper()
	for _, v := range vs {
		Expect(quiet.OpenTicket(ctx, v)).To(Succeed())
	}
	return vs
}

var _ = Describe("AP-03 list a region's queue", Label("AP-03", helpdesk.ByTenantRegion), func() {
	var (
		tenant string
		eu     []helpdesk.Ticket // open in eu, oldest first
	)
	BeforeEach(func(ctx SpecContext) {
		tenant = fake.TenantID()
		eu = openAll(ctx, fake.Ticket(tenant, "eu"), fake.Ticket(tenant, "eu"), fake.Ticket(tenant, "eu"))
		openAll(ctx, fake.Ticket(tenant, "us"), fake.Ticket(fake.TenantID(), "eu")) // another region, another tenant
	})

	It("lists the tenant's open tickets of that region only, newest first", func(ctx SpecContext) {
		p, err := table.ListRegion(ctx, helpdesk.RegionQuery{Tenant: tenant, Region: "eu", Status: helpdesk.Open, Size: 10})
		env.Answers(p, err)(helpdesk.Page{Tickets: []helpdesk.Ticket{eu[2], eu[1], eu[0]}})
	})

	It("keeps the tickets opened since a time: a range on the last sort key attribute named", func(ctx SpecContext) {
		p, err := table.ListRegion(ctx, helpdesk.RegionQuery{Tenant: tenant, Region: "eu", Status: helpdesk.Open, Since: eu[1].OpenedAt, Size: 10})
		env.Answers(p, err)(helpdesk.Page{Tickets: []helpdesk.Ticket{eu[2], eu[1]}})
	})

	It("lists every status without one: pending, then open, then closed, each newest first", func(ctx SpecContext) {
		pending, err := quiet.AssignTicket(ctx, eu[0].ID, fake.AgentID(), 2)
		Expect(err).NotTo(HaveOccurred())
		closed, err := quiet.CloseTicket(ctx, eu[2].ID)
		Expect(err).NotTo(HaveOccurred())
		p, err := table.ListRegion(ctx, helpdesk.RegionQuery{Tenant: tenant, Region: "eu", Size: 10})
		env.Answers(p, err)(helpdesk.Page{Tickets: []helpdesk.Ticket{pending, eu[1], closed}})
	})

	It("hands out pages that together hold the queue once", func(ctx SpecContext) {
		q := helpdesk.RegionQuery{Tenant: tenant, Region: "eu", Status: helpdesk.Open, Size: 2}
		first, err := table.ListRegion(ctx, q)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(first.Tickets).To(Equal([]helpdesk.Ticket{eu[2], eu[1]}))
		Expect(first.Next).NotTo(BeEmpty())
		q.After = first.Next
		env.Answers(table.ListRegion(ctx, q))(helpdesk.Page{Tickets: []helpdesk.Ticket{eu[0]}})
	})

	It("refuses a time range without a status, as DynamoDB does, before any call", func(ctx SpecContext) {
		_, err := table.ListRegion(ctx, helpdesk.RegionQuery{Tenant: tenant, Region: "eu", Since: eu[0].OpenedAt, Size: 10})
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(err.Error()).To(ContainSubstring("Status"), "the message names the skipped attribute")

		// DynamoDB Local itself refuses the same condition.
		_, err = env.DB.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(env.Table), IndexName: aws.String(helpdesk.ByTenantRegion),
			KeyConditionExpression:    aws.String("Tenant = :t AND #r = :r AND OpenedAt >= :s"),
			ExpressionAttributeNames:  map[string]string{"#r": "Region"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: tenant}, ":r": &types.AttributeValueMemberS{Value: "eu"}, ":s": &types.AttributeValueMemberN{Value: "0"}},
		})
		Expect(err).To(MatchError(ContainSubstring("ValidationException")))
	})

	DescribeTable("refuses bad input before any call",
		func(ctx SpecContext, q helpdesk.RegionQuery) {
			_, err := table.ListRegion(ctx, q)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("no tenant", helpdesk.RegionQuery{Region: "eu", Size: 10}),
		Entry("no region", helpdesk.RegionQuery{Tenant: "t", Size: 10}),
		Entry("page size 0", helpdesk.RegionQuery{Tenant: "t", Region: "eu"}),
		Entry("page size over the maximum", helpdesk.RegionQuery{Tenant: "t", Region: "eu", Size: helpdesk.MaxPageSize + 1}),
	)
})

var _ = Describe("AP-05 list an agent's queue", Label("AP-05", helpdesk.ByAgent), func() {
	var (
		tenant, agent string
		queue         []helpdesk.Ticket // the agent's queue, in the order it is read
	)
	BeforeEach(func(ctx SpecContext) {
		tenant, agent = fake.TenantID(), fake.AgentID()
		vs := openAll(ctx, fake.Ticket(tenant, "eu"), fake.Ticket(tenant, "us"), fake.Ticket(tenant, "eu"), fake.Ticket(tenant, "ap"))
		assigned := make([]helpdesk.Ticket, len(vs))
		for i, pr := range []int{3, 1, 2, 1} {
			var err error
			assigned[i], err = quiet.AssignTicket(ctx, vs[i].ID, agent, pr)
			Expect(err).NotTo(HaveOccurred())
		}
		queue = []helpdesk.Ticket{assigned[1], assigned[3], assigned[2], assigned[0]}
		// The same agent name at another tenant is another partition, and
		// an open ticket of this tenant is in no agent's queue.
		other := openAll(ctx, fake.Ticket(fake.TenantID(), "eu"))[0]
		_, err := quiet.AssignTicket(ctx, other.ID, agent, 1)
		Expect(err).NotTo(HaveOccurred())
		openAll(ctx, fake.Ticket(tenant, "eu"))
	})

	It("lists the agent's tickets of that tenant, most urgent first, oldest first within a priority", func(ctx SpecContext) {
		env.Answers(table.AgentQueue(ctx, tenant, agent, 0, 10, ""))(helpdesk.Page{Tickets: queue})
	})

	It("keeps the tickets at a priority or more urgent", func(ctx SpecContext) {
		env.Answers(table.AgentQueue(ctx, tenant, agent, 2, 10, ""))(helpdesk.Page{Tickets: queue[:3]})
	})

	It("hands out pages that together hold the queue once", func(ctx SpecContext) {
		first, err := table.AgentQueue(ctx, tenant, agent, 0, 3, "")
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(first.Tickets).To(Equal(queue[:3]))
		env.Answers(table.AgentQueue(ctx, tenant, agent, 0, 3, first.Next))(helpdesk.Page{Tickets: queue[3:]})
	})

	It("refuses a queue without a tenant or agent before any call", func(ctx SpecContext) {
		_, err := table.AgentQueue(ctx, "", agent, 0, 10, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		_, err = table.AgentQueue(ctx, tenant, "", 0, 10, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
