package agencies_test

import (
	"context"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/agencies"
)

// countIndex counts, page by page, the items of an index that match cond.
func countIndex(ctx context.Context, index string, cond expression.ConditionBuilder) (int, error) {
	expr, err := expression.NewBuilder().WithFilter(cond).Build()
	if err != nil {
		return 0, err
	}
	pages := dynamodb.NewScanPaginator(env.DB, &dynamodb.ScanInput{
		TableName:                 aws.String(env.Table),
		IndexName:                 aws.String(index),
		FilterExpression:          expr.Filter(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		Select:                    types.SelectCount,
	})
	n := 0
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		n += int(out.Count)
	}
	return n, nil
}

// badPages are page requests every listing refuses before calling DynamoDB.
var badPages = []TableEntry{
	Entry("a page size of 0", 0, designs.Cursor("")),
	Entry("a page size above the maximum", agencies.MaxPageSize+1, designs.Cursor("")),
	Entry("a cursor no page returned", 5, designs.Cursor("not-a-cursor!")),
}

var _ = Describe("AP-08 list members by agency ID", Label("AP-08", "main-table"), func() {
	DescribeTable("pages through exactly the agency's members, in idpid order",
		func(ctx SpecContext, members, n int) {
			agency, ms := createAgency(ctx, members)
			createAgency(ctx, 2) // a neighbour whose members must stay out
			got, sizes, err := memberPages(func(after designs.Cursor) (agencies.MemberPage, error) {
				return table.ListAgencyMembers(ctx, agency.ID, n, after)
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(sorted(ms, byIdpID)))
			Expect(sizes).To(Equal(pageSizes(members, n)))
		},
		Entry("no members: one empty page", 0, 3),
		Entry("fewer members than a page", 2, 3),
		Entry("exactly one page, with no empty page after it", 3, 3),
		Entry("several pages, the last one short", 7, 3),
		Entry("one member a page", 4, 1),
	)

	It("gives an unknown agency an empty page", func(ctx SpecContext) {
		page, err := table.ListAgencyMembers(ctx, fake.Agency().ID, 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(Equal(agencies.MemberPage{Members: []agencies.Member{}}))
	})

	DescribeTable("refuses a bad page request",
		func(ctx SpecContext, n int, after designs.Cursor) {
			agency, _ := createAgency(ctx, 1)
			_, err := table.ListAgencyMembers(ctx, agency.ID, n, after)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		badPages,
	)
})

var _ = Describe("AP-09 list all agencies", Label("AP-09", "GSI1"), func() {
	// Every spec of this process shares GSI1's "Agency" partition: results
	// are made exact by a created window of the spec's own, from the fixture
	// clock, or by finding the spec's agencies once each, in order.
	var from, to time.Time
	var created []agencies.Agency
	var members []agencies.Member
	BeforeEach(func(ctx SpecContext) {
		from = fake.Tick()
		created, members = nil, nil
		for range 5 {
			a, ms := createAgency(ctx, 2)
			created, members = append(created, a), append(members, ms...)
		}
		to = fake.Tick()
	})

	listWindow := func(ctx context.Context, from, to time.Time, n int) ([]agencies.Agency, []int, error) {
		return agencyPages(func(after designs.Cursor) (agencies.AgencyPage, error) {
			return table.ListAgenciesCreated(ctx, from, to, n, after)
		})
	}

	DescribeTable("pages through the window's agencies, oldest first",
		func(ctx SpecContext, n int) {
			Eventually(ctx, func(g Gomega) {
				got, sizes, err := listWindow(ctx, from, to, n)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(got).To(Equal(created))
				g.Expect(sizes).To(Equal(pageSizes(len(created), n)))
			}).Should(Succeed())
		},
		Entry("all in one page", 10),
		Entry("exactly one page, with no empty page after it", 5),
		Entry("two a page", 2),
		Entry("one a page", 1),
	)

	DescribeTable("includes agencies created exactly at either end of the window",
		func(ctx SpecContext, first, last int) {
			Eventually(ctx, func(g Gomega) {
				got, _, err := listWindow(ctx, created[first].Created, created[last].Created, 10)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(got).To(Equal(created[first : last+1]))
			}).Should(Succeed())
		},
		Entry("the first three", 0, 2),
		Entry("a single agency", 3, 3),
		Entry("the last two", 3, 4),
	)

	It("lists agencies only, though members sit on GSI1 too", func(ctx SpecContext) {
		onGSI1 := expression.Name(agencies.AttrType).Equal(expression.Value(agencies.TypeMember)).
			And(expression.Name(agencies.AttrCreated).Between(expression.Value(agencies.Stamp(from)), expression.Value(agencies.Stamp(to))))
		Eventually(ctx, countIndex).WithArguments(agencies.GSI1, onGSI1).Should(Equal(len(members)))

		Eventually(ctx, func(g Gomega) {
			all, _, err := agencyPages(func(after designs.Cursor) (agencies.AgencyPage, error) {
				return table.ListAgencies(ctx, 7, after)
			})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(all).To(HaveEach(HaveField("Name", Not(BeEmpty()))), "a member decodes with no name")
			g.Expect(slices.IsSortedFunc(all, func(a, b agencies.Agency) int { return a.Created.Compare(b.Created) })).To(BeTrue(), "oldest first")
			ids := map[string]int{}
			var mine []agencies.Agency
			for _, a := range all {
				ids[a.ID]++
				if slices.ContainsFunc(created, func(c agencies.Agency) bool { return c.ID == a.ID }) {
					mine = append(mine, a)
				}
			}
			g.Expect(ids).To(HaveEach(1), "each agency once")
			g.Expect(mine).To(Equal(created))
		}).Should(Succeed())
	})

	DescribeTable("refuses a bad window",
		func(ctx SpecContext, window func() (time.Time, time.Time)) {
			from, to := window()
			_, err := table.ListAgenciesCreated(ctx, from, to, 5, "")
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("that ends before it starts", func() (time.Time, time.Time) { return to, from }),
		Entry("with no start", func() (time.Time, time.Time) { return time.Time{}, to }),
		Entry("with no end", func() (time.Time, time.Time) { return from, time.Time{} }),
	)

	DescribeTable("refuses a bad page request",
		func(ctx SpecContext, n int, after designs.Cursor) {
			_, err := table.ListAgencies(ctx, n, after)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			_, err = table.ListAgenciesCreated(ctx, from, to, n, after)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		badPages,
	)
})

var _ = Describe("AP-10 list members by idpid", Label("AP-10", "GSI2"), func() {
	DescribeTable("pages through exactly the user's memberships, in agencyId order",
		func(ctx SpecContext, joined, n int) {
			user := fake.IdpID()
			var want []agencies.Member
			for range joined {
				a, _ := createAgency(ctx, 1) // with a member who is someone else
				m := fake.Membership(a.ID, user)
				Expect(quiet.CreateMember(ctx, m)).To(Succeed())
				want = append(want, m)
			}
			createAgency(ctx, 1) // an agency the user is not in
			Eventually(ctx, func(g Gomega) {
				got, sizes, err := memberPages(func(after designs.Cursor) (agencies.MemberPage, error) {
					return table.ListMemberships(ctx, user, n, after)
				})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(got).To(Equal(sorted(want, byAgencyID)))
				g.Expect(sizes).To(Equal(pageSizes(joined, n)))
			}).Should(Succeed())
		},
		Entry("a user of no agency: one empty page", 0, 2),
		Entry("a user of one agency", 1, 2),
		Entry("exactly two pages, with no empty page after them", 4, 2),
		Entry("several pages, the last one short", 5, 2),
	)

	It("holds member items only: agencies carry no idpid", func(ctx SpecContext) {
		agency, _ := createAgency(ctx, 1)
		Eventually(ctx, listedAt).WithArguments(agency.Created).Should(HaveLen(1))
		notMember := expression.Name(agencies.AttrType).NotEqual(expression.Value(agencies.TypeMember))
		ofAgency := expression.Name(agencies.AttrAgencyID).Equal(expression.Value(agency.ID))
		Eventually(ctx, countIndex).WithArguments(agencies.GSI2, ofAgency).Should(Equal(1), "its member, not itself")
		Expect(countIndex(ctx, agencies.GSI2, notMember)).To(BeZero())
	})

	It("refuses an empty idpid", func(ctx SpecContext) {
		_, err := table.ListMemberships(ctx, "", 5, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})

	DescribeTable("refuses a bad page request",
		func(ctx SpecContext, n int, after designs.Cursor) {
			_, err := table.ListMemberships(ctx, fake.IdpID(), n, after)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		badPages,
	)
})
