package agencies_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// listedAt lists, through GSI1, the agencies created at exactly t: a
// spec's check, so through quiet.
func listedAt(ctx context.Context, t time.Time) ([]agencies.Agency, error) {
	page, err := quiet.ListAgenciesCreated(ctx, t, t, 10, "")
	return page.Agencies, err
}

var _ = Describe("AP-01 create agency", Label("AP-01", "main-table"), func() {
	var agency agencies.Agency
	BeforeEach(func() { agency = fake.Agency() })

	It("writes the agency, readable by ID and listed on GSI1", func(ctx SpecContext) {
		Expect(table.CreateAgency(ctx, agency)).To(Succeed())
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
		Eventually(ctx, listedAt).WithArguments(agency.Created).Should(Equal([]agencies.Agency{agency}))
	})

	It("stores type Agency, fixed-width stamps and no idpid, so GSI1 holds it and GSI2 does not", func(ctx SpecContext) {
		Expect(table.CreateAgency(ctx, agency)).To(Succeed())
		item := rawItem(ctx, agencies.AgencyPK(agency.ID), agencies.AgencySK(agency.ID))
		Expect(str(item, agencies.AttrType)).To(Equal(agencies.TypeAgency))
		Expect(str(item, agencies.AttrCreated)).To(Equal(agency.Created.UTC().Format("2006-01-02T15:04:05") + ".000000000Z"))
		Expect(str(item, "modified")).To(Equal(str(item, agencies.AttrCreated)))
		Expect(item).NotTo(HaveKey(agencies.AttrIdpID))
	})

	It("starts modified and modifiedBy as created and createdBy", func(ctx SpecContext) {
		given := agency
		given.Modified, given.ModifiedBy = fake.Tick(), "someone-else"
		Expect(table.CreateAgency(ctx, given)).To(Succeed())
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
	})

	It("refuses an ID already taken and keeps the first agency", func(ctx SpecContext) {
		Expect(quiet.CreateAgency(ctx, agency)).To(Succeed())
		other := fake.Agency()
		other.ID = agency.ID
		Expect(table.CreateAgency(ctx, other)).To(MatchError(designs.ErrAlreadyExists))
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
	})

	It("lets exactly one of 20 concurrent creates of one ID win", func(ctx SpecContext) {
		rivals := make([]agencies.Agency, 20)
		for i := range rivals {
			rivals[i] = fake.Agency()
			rivals[i].ID = agency.ID
		}
		winner := ddbtest.OnlyWinner(ddbtest.Race(len(rivals), func(i int) error { return table.CreateAgency(ctx, rivals[i]) }), designs.ErrAlreadyExists)
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(rivals[winner]))
		Eventually(ctx, func() ([]agencies.Agency, error) {
			page, err := quiet.ListAgenciesCreated(ctx, rivals[0].Created, rivals[len(rivals)-1].Created, agencies.MaxPageSize, "")
			return page.Agencies, err
		}).Should(Equal([]agencies.Agency{rivals[winner]}))
	})

	DescribeTable("refuses an incomplete agency before calling DynamoDB",
		func(ctx SpecContext, spoil func(*agencies.Agency)) {
			spoil(&agency)
			Expect(table.CreateAgency(ctx, agency)).To(MatchError(designs.ErrInvalidInput))
			if agency.ID != "" {
				Expect(agencyStored(ctx, agency.ID)).To(BeFalse())
			}
		},
		Entry("without an ID", func(a *agencies.Agency) { a.ID = "" }),
		Entry("without a name", func(a *agencies.Agency) { a.Name = "" }),
		Entry("without a status", func(a *agencies.Agency) { a.Status = "" }),
		Entry("without a creator", func(a *agencies.Agency) { a.CreatedBy = "" }),
		Entry("without a creation time", func(a *agencies.Agency) { a.Created = time.Time{} }),
		Entry("created after year 9999", func(a *agencies.Agency) { a.Created = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }),
	)
})

var _ = Describe("AP-02 update agency", Label("AP-02", "main-table"), func() {
	var agency agencies.Agency
	var edit agencies.Edit
	BeforeEach(func(ctx SpecContext) {
		agency, _ = createAgency(ctx, 0)
		edit = fake.Edit()
	})

	DescribeTable("sets the given fields and the edit, visible by ID and on GSI1",
		func(ctx SpecContext, change func() agencies.AgencyUpdate) {
			u := change()
			want := agency
			if u.Name != "" {
				want.Name = u.Name
			}
			if u.Status != "" {
				want.Status = u.Status
			}
			want.Modified, want.ModifiedBy = edit.At, edit.By

			Expect(table.UpdateAgency(ctx, agency.ID, u, edit)).To(Equal(want))
			Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(want))
			Eventually(ctx, listedAt).WithArguments(agency.Created).Should(Equal([]agencies.Agency{want}))
		},
		Entry("name and status", func() agencies.AgencyUpdate { return fake.AgencyUpdate() }),
		Entry("name only", func() agencies.AgencyUpdate { return agencies.AgencyUpdate{Name: fake.Company()} }),
		Entry("status only", func() agencies.AgencyUpdate { return agencies.AgencyUpdate{Status: "closed"} }),
	)

	It("reports ErrNotFound for an unknown agency and creates nothing", func(ctx SpecContext) {
		ghost := fake.Agency()
		_, err := table.UpdateAgency(ctx, ghost.ID, fake.AgencyUpdate(), edit)
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(agencyStored(ctx, ghost.ID)).To(BeFalse())
	})

	DescribeTable("refuses an update that says nothing or names no editor, and keeps the agency",
		func(ctx SpecContext, u agencies.AgencyUpdate, spoil func(*agencies.Edit)) {
			spoil(&edit)
			_, err := table.UpdateAgency(ctx, agency.ID, u, edit)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
		},
		Entry("with no field to change", agencies.AgencyUpdate{}, func(*agencies.Edit) {}),
		Entry("without an editor", agencies.AgencyUpdate{Name: "New name"}, func(e *agencies.Edit) { e.By = "" }),
		Entry("without an edit time", agencies.AgencyUpdate{Name: "New name"}, func(e *agencies.Edit) { e.At = time.Time{} }),
	)
})

var _ = Describe("AP-03 delete agency", Label("AP-03", "main-table"), func() {
	// standsWhole is what a delete that hands back a fault leaves: its one
	// transaction wrote nothing, so the agency stands with all its members
	// (never a member without its agency).
	standsWhole := func(ctx context.Context, agency agencies.Agency, ms []agencies.Member) {
		GinkgoHelper()
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
		Expect(membersOf(ctx, agency.ID)).To(ConsistOf(ms))
	}

	DescribeTable("deletes the agency and all its members from the table, GSI1 and GSI2",
		func(ctx SpecContext, members int) {
			agency, ms := createAgency(ctx, members)
			err := env.Again(func() error { return table.DeleteAgency(ctx, agency.ID) }, func() { standsWhole(ctx, agency, ms) })
			if env.Faulted(err) {
				return
			}
			Expect(err).NotTo(HaveOccurred())

			Expect(agencyStored(ctx, agency.ID)).To(BeFalse())
			for _, m := range ms {
				Expect(memberStored(ctx, m.AgencyID, m.IdpID)).To(BeFalse(), "member %s", m.IdpID)
			}
			_, err = quiet.GetAgency(ctx, agency.ID)
			Expect(err).To(MatchError(designs.ErrNotFound))
			Eventually(ctx, listedAt).WithArguments(agency.Created).Should(BeEmpty())
			for _, m := range ms {
				Eventually(ctx, func() ([]agencies.Member, error) {
					page, err := quiet.ListMemberships(ctx, m.IdpID, 10, "")
					return page.Members, err
				}).Should(BeEmpty(), "memberships of %s", m.IdpID)
			}
		},
		Entry("an agency without members", 0),
		Entry("an agency with a few members", 3),
		Entry("an agency with as many members as one transaction takes", agencies.MaxAgencyMembers),
	)

	It("refuses an agency with too many members for one transaction and deletes nothing", func(ctx SpecContext) {
		agency, ms := createAgency(ctx, agencies.MaxAgencyMembers+1)
		Expect(table.DeleteAgency(ctx, agency.ID)).To(MatchError(designs.ErrTooManyActions))
		standsWhole(ctx, agency, ms)
	})

	It("keeps the same users' memberships of other agencies", func(ctx SpecContext) {
		doomed, ms := createAgency(ctx, 2)
		kept, _ := createAgency(ctx, 0)
		var want []agencies.Member
		for _, m := range ms {
			other := fake.Membership(kept.ID, m.IdpID)
			Expect(quiet.CreateMember(ctx, other)).To(Succeed())
			want = append(want, other)
		}
		err := env.Again(func() error { return table.DeleteAgency(ctx, doomed.ID) }, func() { standsWhole(ctx, doomed, ms) })
		if env.Faulted(err) {
			Expect(membersOf(ctx, kept.ID)).To(ConsistOf(want))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(agencyStored(ctx, doomed.ID)).To(BeFalse())
		for i, m := range ms {
			Eventually(ctx, func() ([]agencies.Member, error) {
				page, err := quiet.ListMemberships(ctx, m.IdpID, 10, "")
				return page.Members, err
			}).Should(Equal([]agencies.Member{want[i]}))
		}
		Expect(quiet.GetAgency(ctx, kept.ID)).To(Equal(kept))
	})

	It("reports ErrNotFound for an unknown agency, and for one deleted already", func(ctx SpecContext) {
		Expect(table.DeleteAgency(ctx, fake.Agency().ID)).To(MatchError(designs.ErrNotFound))
		agency, _ := createAgency(ctx, 1)
		Expect(quiet.DeleteAgency(ctx, agency.ID)).To(Succeed())
		Expect(table.DeleteAgency(ctx, agency.ID)).To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("AP-07 read agency by ID", Label("AP-07", "main-table"), func() {
	It("returns the agency alone, whatever members it has", func(ctx SpecContext) {
		agency, _ := createAgency(ctx, 2)
		env.Answers(table.GetAgency(ctx, agency.ID))(agency)
	})

	It("reports ErrNotFound for an unknown agency", func(ctx SpecContext) {
		_, err := table.GetAgency(ctx, fake.Agency().ID)
		env.Refuses(err, designs.ErrNotFound)
	})

	It("refuses an empty ID", func(ctx SpecContext) {
		_, err := table.GetAgency(ctx, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
