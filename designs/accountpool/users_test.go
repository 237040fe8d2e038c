package accountpool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var badEmails = []TableEntry{
	Entry("an empty email", ""),
	Entry("no @", "bill.bob.example.com"),
	Entry("nothing before the @", "@example.com"),
	Entry("nothing after the @", "bill.bob@"),
	Entry("two @", "bill@bob@example.com"),
}

var _ = Describe("AP-12 add user", Label("AP-12", designs.MainTable), func() {
	var email string
	BeforeEach(func() { email = fake.Email() })

	It("adds the user without a lease", func(ctx SpecContext) {
		Expect(table.AddUser(ctx, email)).To(Equal(accountpool.User{Email: email}))
		Expect(stored(ctx, accountpool.UserKey(email))).To(Equal(map[string]any{
			"pk": accountpool.UserKey(email), "type": "user", "data": map[string]any{}}))
	})

	It("refuses an email already present with ErrAlreadyExists, keeping that user's lease", func(ctx SpecContext) {
		lease := newLease(ctx)
		before := stored(ctx, accountpool.UserKey(lease.UserID))
		_, err := table.AddUser(ctx, lease.UserID)
		Expect(err).To(MatchError(designs.ErrAlreadyExists))
		Expect(stored(ctx, accountpool.UserKey(lease.UserID))).To(Equal(before))
	})

	It("lets exactly one of 20 concurrent adds of one email win", func(ctx SpecContext) {
		env.OnlyWinner(ddbtest.Race(20, func(int) error {
			_, err := table.AddUser(ctx, email)
			return err
		}), designs.ErrAlreadyExists)
		Expect(quiet.GetUser(ctx, email)).To(Equal(accountpool.User{Email: email}))
	})

	DescribeTable("refuses a malformed email with ErrInvalidInput before writing",
		func(ctx SpecContext, bad string) {
			_, err := table.AddUser(ctx, bad)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(stored(ctx, accountpool.UserKey(bad))).To(BeNil())
		},
		badEmails,
	)
})

var _ = Describe("AP-09 get user", Label("AP-09", designs.MainTable), func() {
	It("returns a user without a lease", func(ctx SpecContext) {
		email := newUser(ctx)
		env.Answers(table.GetUser(ctx, email))(accountpool.User{Email: email})
	})

	It("returns the lease and account a user holds", func(ctx SpecContext) {
		lease := newLease(ctx)
		env.Answers(table.GetUser(ctx, lease.UserID))(accountpool.User{
			Email: lease.UserID, LeaseID: lease.ID, AccountID: lease.AccountID})
	})

	It("reports ErrNotFound for an unknown email", func(ctx SpecContext) {
		_, err := table.GetUser(ctx, fake.Email())
		env.Refuses(err, designs.ErrNotFound)
	})

	DescribeTable("refuses a malformed email with ErrInvalidInput",
		func(ctx SpecContext, bad string) {
			_, err := table.GetUser(ctx, bad)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		badEmails,
	)
})
