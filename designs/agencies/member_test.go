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

// membersOf lists the agency's members on the main table, one page: a
// spec's check, so through quiet.
func membersOf(ctx context.Context, agencyID string) []agencies.Member {
	GinkgoHelper()
	page, err := quiet.ListAgencyMembers(ctx, agencyID, agencies.MaxPageSize, "")
	Expect(err).NotTo(HaveOccurred())
	Expect(page.Next).To(BeEmpty())
	return page.Members
}

// membershipsOf lists the user's memberships on GSI2, one page, through
// quiet.
func membershipsOf(ctx context.Context, idpID string) ([]agencies.Member, error) {
	page, err := quiet.ListMemberships(ctx, idpID, agencies.MaxPageSize, "")
	return page.Members, err
}

var _ = Describe("AP-04 create member", Label("AP-04", "main-table"), func() {
	var agency agencies.Agency
	var member agencies.Member
	BeforeEach(func(ctx SpecContext) {
		agency, _ = createAgency(ctx, 0)
		member = fake.Member(agency.ID)
	})

	// alone is what a create that hands back a fault leaves: its one
	// transaction wrote nothing, so the agency has no member.
	alone := func(ctx context.Context) {
		GinkgoHelper()
		Expect(membersOf(ctx, agency.ID)).To(BeEmpty())
	}

	It("adds the member to its agency and to GSI2", func(ctx SpecContext) {
		err := env.Again(func() error { return table.CreateMember(ctx, member) }, func() { alone(ctx) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{member}))
		Eventually(ctx, membershipsOf).WithArguments(member.IdpID).Should(Equal([]agencies.Member{member}))
	})

	It("stores type Member with its agencyId and idpid, and modified as created", func(ctx SpecContext) {
		given := member
		given.Modified, given.ModifiedBy = fake.Tick(), "someone-else"
		err := env.Again(func() error { return table.CreateMember(ctx, given) }, func() { alone(ctx) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		item := rawItem(ctx, agencies.AgencyPK(agency.ID), agencies.MemberSK(member.IdpID))
		Expect(str(item, agencies.AttrType)).To(Equal(agencies.TypeMember))
		Expect(str(item, agencies.AttrAgencyID)).To(Equal(agency.ID))
		Expect(str(item, agencies.AttrIdpID)).To(Equal(member.IdpID))
		Expect(str(item, "modified")).To(Equal(str(item, agencies.AttrCreated)))
		Expect(str(item, "modifiedBy")).To(Equal(member.CreatedBy))
	})

	It("refuses a member of an agency that does not exist and writes nothing", func(ctx SpecContext) {
		orphan := fake.Member(fake.Agency().ID)
		nothing := func() {
			Expect(memberStored(ctx, orphan.AgencyID, orphan.IdpID)).To(BeFalse())
			Expect(agencyStored(ctx, orphan.AgencyID)).To(BeFalse())
		}
		err := env.Again(func() error { return table.CreateMember(ctx, orphan) }, nothing)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrNotFound))
		}
		nothing()
	})

	It("refuses a repeated membership and keeps the first", func(ctx SpecContext) {
		Expect(quiet.CreateMember(ctx, member)).To(Succeed())
		again := fake.Membership(agency.ID, member.IdpID)
		first := func() { Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{member})) }
		err := env.Again(func() error { return table.CreateMember(ctx, again) }, first)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrAlreadyExists))
		}
		first()
	})

	It("lets exactly one of 20 concurrent creates of one membership win", func(ctx SpecContext) {
		rivals := make([]agencies.Member, 20)
		for i := range rivals {
			rivals[i] = fake.Membership(agency.ID, member.IdpID)
		}
		winner := env.OnlyWinner(ddbtest.Race(len(rivals), func(i int) error { return table.CreateMember(ctx, rivals[i]) }), designs.ErrAlreadyExists)
		Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{rivals[winner]}))
		Eventually(ctx, membershipsOf).WithArguments(member.IdpID).Should(Equal([]agencies.Member{rivals[winner]}))
	})

	DescribeTable("refuses an incomplete member before calling DynamoDB",
		func(ctx SpecContext, spoil func(*agencies.Member)) {
			spoil(&member)
			Expect(table.CreateMember(ctx, member)).To(MatchError(designs.ErrInvalidInput))
			Expect(membersOf(ctx, agency.ID)).To(BeEmpty())
		},
		Entry("without an agency", func(m *agencies.Member) { m.AgencyID = "" }),
		Entry("without an idpid", func(m *agencies.Member) { m.IdpID = "" }),
		Entry("without a creator", func(m *agencies.Member) { m.CreatedBy = "" }),
		Entry("without a creation time", func(m *agencies.Member) { m.Created = time.Time{} }),
	)
})

var _ = Describe("AP-05 update member", Label("AP-05", "main-table"), func() {
	var agency agencies.Agency
	var member agencies.Member
	var edit agencies.Edit
	BeforeEach(func(ctx SpecContext) {
		var ms []agencies.Member
		agency, ms = createAgency(ctx, 1)
		member, edit = ms[0], fake.Edit()
	})

	It("records the edit, visible in the agency's members and on GSI2", func(ctx SpecContext) {
		want := member
		want.Modified, want.ModifiedBy = edit.At, edit.By
		Expect(table.UpdateMember(ctx, agency.ID, member.IdpID, edit)).To(Equal(want))
		Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{want}))
		Eventually(ctx, membershipsOf).WithArguments(member.IdpID).Should(Equal([]agencies.Member{want}))
	})

	It("leaves the agency untouched", func(ctx SpecContext) {
		_, err := table.UpdateMember(ctx, agency.ID, member.IdpID, edit)
		Expect(err).NotTo(HaveOccurred())
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
	})

	It("reports ErrNotFound for a user who is not a member, and creates nothing", func(ctx SpecContext) {
		stranger := fake.IdpID()
		_, err := table.UpdateMember(ctx, agency.ID, stranger, edit)
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(memberStored(ctx, agency.ID, stranger)).To(BeFalse())
	})

	DescribeTable("refuses an update that names no member or editor, and keeps the member",
		func(ctx SpecContext, agencyID, idpID func() string, spoil func(*agencies.Edit)) {
			spoil(&edit)
			_, err := table.UpdateMember(ctx, agencyID(), idpID(), edit)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{member}))
		},
		Entry("without an agency", func() string { return "" }, func() string { return member.IdpID }, func(*agencies.Edit) {}),
		Entry("without an idpid", func() string { return agency.ID }, func() string { return "" }, func(*agencies.Edit) {}),
		Entry("without an editor", func() string { return agency.ID }, func() string { return member.IdpID }, func(e *agencies.Edit) { e.By = "" }),
		Entry("without an edit time", func() string { return agency.ID }, func() string { return member.IdpID }, func(e *agencies.Edit) { e.At = time.Time{} }),
	)
})

var _ = Describe("AP-06 delete member", Label("AP-06", "main-table"), func() {
	var agency agencies.Agency
	var gone, kept agencies.Member
	BeforeEach(func(ctx SpecContext) {
		var ms []agencies.Member
		agency, ms = createAgency(ctx, 2)
		gone, kept = ms[0], ms[1]
	})

	It("removes the membership from its agency and from GSI2, keeping the agency and other members", func(ctx SpecContext) {
		Eventually(ctx, membershipsOf).WithArguments(gone.IdpID).Should(HaveLen(1))
		Expect(table.DeleteMember(ctx, agency.ID, gone.IdpID)).To(Succeed())
		Expect(memberStored(ctx, agency.ID, gone.IdpID)).To(BeFalse())
		Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{kept}))
		Expect(quiet.GetAgency(ctx, agency.ID)).To(Equal(agency))
		Eventually(ctx, membershipsOf).WithArguments(gone.IdpID).Should(BeEmpty())
		Eventually(ctx, membershipsOf).WithArguments(kept.IdpID).Should(Equal([]agencies.Member{kept}))
	})

	It("reports ErrNotFound for a membership that is gone already", func(ctx SpecContext) {
		Expect(quiet.DeleteMember(ctx, agency.ID, gone.IdpID)).To(Succeed())
		Expect(table.DeleteMember(ctx, agency.ID, gone.IdpID)).To(MatchError(designs.ErrNotFound))
		Expect(membersOf(ctx, agency.ID)).To(Equal([]agencies.Member{kept}))
	})

	It("refuses a delete that names no member", func(ctx SpecContext) {
		Expect(table.DeleteMember(ctx, agency.ID, "")).To(MatchError(designs.ErrInvalidInput))
		Expect(table.DeleteMember(ctx, "", gone.IdpID)).To(MatchError(designs.ErrInvalidInput))
		Expect(membersOf(ctx, agency.ID)).To(Equal(sorted([]agencies.Member{gone, kept}, byIdpID)))
	})
})
