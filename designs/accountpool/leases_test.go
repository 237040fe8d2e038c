package accountpool_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// attempt is one CreateLease call a refusal spec makes.
type attempt struct{ leaseID, accountID, email string }

var _ = Describe("AP-10 create lease", Label("AP-10", designs.MainTable), func() {
	var account, email, leaseID string
	BeforeEach(func(ctx SpecContext) {
		account, email, leaseID = newAccount(ctx, accountpool.StateAvailable), newUser(ctx), fake.LeaseID()
	})

	It("leases the available account to the user, updating every item it touches", func(ctx SpecContext) {
		want := accountpool.Lease{ID: leaseID, State: accountpool.LeaseActive, AccountID: account, UserID: email}
		unchanged := asBefore(ctx, accountpool.LeaseKey(leaseID), accountpool.AccountKey(account), accountpool.UserKey(email))
		var got accountpool.Lease
		err := env.Again(func() (err error) { got, err = table.CreateLease(ctx, leaseID, account, email); return err }, unchanged)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
		Expect(quiet.GetLease(ctx, leaseID)).To(Equal(want))
		Expect(activeLease(ctx, leaseID)).To(BeTrue())
		Expect(accountState(ctx, account)).To(Equal(accountpool.StateLeased))
		Expect(setsHolding(ctx, account)).To(ConsistOf("all", "leased"))
		Expect(quiet.GetUser(ctx, email)).To(Equal(accountpool.User{Email: email, LeaseID: leaseID, AccountID: account}))
	})

	DescribeTable("refuses the lease and changes nothing",
		func(ctx SpecContext, setup func(context.Context) attempt, want error) {
			a := setup(ctx)
			unchanged := asBefore(ctx, accountpool.LeaseKey(a.leaseID), accountpool.AccountKey(a.accountID), accountpool.UserKey(a.email))
			err := env.Again(func() error { _, err := table.CreateLease(ctx, a.leaseID, a.accountID, a.email); return err }, unchanged)
			env.Refuses(err, want)
			unchanged()
		},
		Entry("when the account is still initial", func(ctx context.Context) attempt {
			return attempt{leaseID, newAccount(ctx, accountpool.StateInitial), email}
		}, accountpool.ErrAccountNotAvailable),
		Entry("when the account is already leased", func(ctx context.Context) attempt {
			return attempt{leaseID, newAccount(ctx, accountpool.StateLeased), email}
		}, accountpool.ErrAccountNotAvailable),
		Entry("when the account was never added", func(context.Context) attempt {
			return attempt{leaseID, fake.AccountID(), email}
		}, designs.ErrNotFound),
		Entry("when the user was never added", func(context.Context) attempt {
			return attempt{leaseID, account, fake.Email()}
		}, designs.ErrNotFound),
		Entry("when the user already holds a lease", func(ctx context.Context) attempt {
			_, err := quiet.CreateLease(ctx, fake.LeaseID(), newAccount(ctx, accountpool.StateAvailable), email)
			Expect(err).NotTo(HaveOccurred())
			return attempt{leaseID, account, email}
		}, accountpool.ErrUserHasLease),
		Entry("when the lease ID is already in use", func(ctx context.Context) attempt {
			return attempt{newLease(ctx).ID, account, email}
		}, designs.ErrAlreadyExists),
		Entry("when the account is not 12 digits", func(context.Context) attempt {
			return attempt{leaseID, "1234", email}
		}, designs.ErrInvalidInput),
		Entry("when the user is not an email", func(context.Context) attempt {
			return attempt{leaseID, account, "bill.bob"}
		}, designs.ErrInvalidInput),
		Entry("when the lease ID is empty", func(context.Context) attempt {
			return attempt{"", account, email}
		}, designs.ErrInvalidInput),
	)

	It("leases the last available account to exactly one of 20 users racing for it", func(ctx SpecContext) {
		emails, leaseIDs := make([]string, 20), make([]string, 20)
		for i := range emails {
			emails[i], leaseIDs[i] = newUser(ctx), fake.LeaseID()
		}
		errs := ddbtest.Race(20, func(i int) error {
			_, err := table.CreateLease(ctx, leaseIDs[i], account, emails[i])
			return err
		})
		won := env.OnlyWinner(errs, accountpool.ErrAccountNotAvailable)

		Expect(setsHolding(ctx, account)).To(ConsistOf("all", "leased"))
		Expect(quiet.GetLease(ctx, leaseIDs[won])).To(HaveField("UserID", emails[won]))
		for i := range emails {
			if i == won {
				continue
			}
			Expect(stored(ctx, accountpool.LeaseKey(leaseIDs[i]))).To(BeNil(), "loser %d's lease", i)
			Expect(activeLease(ctx, leaseIDs[i])).To(BeFalse(), "loser %d's lease", i)
			Expect(quiet.GetUser(ctx, emails[i])).To(Equal(accountpool.User{Email: emails[i]}))
		}
		Expect(activeLease(ctx, leaseIDs[won])).To(BeTrue())
	})

	It("gives a user racing for 20 accounts exactly one lease", func(ctx SpecContext) {
		accounts, leaseIDs := make([]string, 20), make([]string, 20)
		for i := range accounts {
			accounts[i], leaseIDs[i] = newAccount(ctx, accountpool.StateAvailable), fake.LeaseID()
		}
		errs := ddbtest.Race(20, func(i int) error {
			_, err := table.CreateLease(ctx, leaseIDs[i], accounts[i], email)
			return err
		})
		won := env.OnlyWinner(errs, accountpool.ErrUserHasLease)

		Expect(quiet.GetUser(ctx, email)).To(Equal(accountpool.User{Email: email, LeaseID: leaseIDs[won], AccountID: accounts[won]}))
		for i := range accounts {
			if i == won {
				Expect(setsHolding(ctx, accounts[i])).To(ConsistOf("all", "leased"))
				continue
			}
			Expect(setsHolding(ctx, accounts[i])).To(ConsistOf("all", "available"), "account %d", i)
			Expect(stored(ctx, accountpool.LeaseKey(leaseIDs[i]))).To(BeNil(), "lease %d", i)
		}
	})
})

var _ = Describe("AP-11 delete lease", Label("AP-11", designs.MainTable), func() {
	var (
		lease accountpool.Lease
		was   map[string]map[string]any // the lease's items and the status items
	)
	BeforeEach(func(ctx SpecContext) {
		lease = newLease(ctx)
		was = snapshot(ctx, accountpool.LeaseKey(lease.ID), accountpool.AccountKey(lease.AccountID), accountpool.UserKey(lease.UserID))
	})

	// The invariant of a delete that handed back a fault: the lease
	// still stands whole, on its account and user, every item as it was.
	standsAsItWas := func(ctx context.Context) {
		GinkgoHelper()
		Expect(snapshot(ctx, accountpool.LeaseKey(lease.ID), accountpool.AccountKey(lease.AccountID), accountpool.UserKey(lease.UserID))).To(Equal(was))
	}

	It("ends the lease, returns the account to available and frees the user", func(ctx SpecContext) {
		var got accountpool.Lease
		err := env.Again(func() (err error) { got, err = table.DeleteLease(ctx, lease.ID); return err }, func() { standsAsItWas(ctx) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(lease))
		Expect(stored(ctx, accountpool.LeaseKey(lease.ID))).To(BeNil())
		Expect(activeLease(ctx, lease.ID)).To(BeFalse())
		Expect(accountState(ctx, lease.AccountID)).To(Equal(accountpool.StateAvailable))
		Expect(setsHolding(ctx, lease.AccountID)).To(ConsistOf("all", "available"))
		Expect(quiet.GetUser(ctx, lease.UserID)).To(Equal(accountpool.User{Email: lease.UserID}))
	})

	It("lets the user and the account take a new lease afterwards", func(ctx SpecContext) {
		err := env.Again(func() error { _, err := table.DeleteLease(ctx, lease.ID); return err }, func() { standsAsItWas(ctx) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		again, err := table.CreateLease(ctx, fake.LeaseID(), lease.AccountID, lease.UserID)
		Expect(err).NotTo(HaveOccurred())
		Expect(quiet.GetLease(ctx, again.ID)).To(Equal(again), "the new lease is stored, on the same account and user")
		Expect(activeLease(ctx, again.ID)).To(BeTrue(), "the new lease is active")
		Expect(activeLease(ctx, lease.ID)).To(BeFalse(), "the ended one is not")
		Expect(accountState(ctx, lease.AccountID)).To(Equal(accountpool.StateLeased))
	})

	DescribeTable("reports ErrLeaseNotActive and changes nothing",
		func(ctx SpecContext, setup func(context.Context) string) {
			id := setup(ctx)
			pks := []string{accountpool.LeaseKey(id), accountpool.AccountKey(lease.AccountID), accountpool.UserKey(lease.UserID)}
			before := snapshot(ctx, pks...)
			_, err := table.DeleteLease(ctx, id)
			env.Refuses(err, accountpool.ErrLeaseNotActive)
			Expect(snapshot(ctx, pks...)).To(Equal(before))
		},
		Entry("for a lease never created", func(context.Context) string { return fake.LeaseID() }),
		Entry("for a lease already ended", func(ctx context.Context) string {
			_, err := quiet.DeleteLease(ctx, lease.ID)
			Expect(err).NotTo(HaveOccurred())
			return lease.ID
		}),
	)

	It("lets exactly one of 20 concurrent deletes of one lease win", func(ctx SpecContext) {
		errs := ddbtest.Race(20, func(int) error {
			_, err := table.DeleteLease(ctx, lease.ID)
			return err
		})
		env.OnlyWinner(errs, accountpool.ErrLeaseNotActive)
		Expect(activeLease(ctx, lease.ID)).To(BeFalse())
		Expect(setsHolding(ctx, lease.AccountID)).To(ConsistOf("all", "available"))
		Expect(quiet.GetUser(ctx, lease.UserID)).To(Equal(accountpool.User{Email: lease.UserID}))
	})

	It("refuses an empty lease ID with ErrInvalidInput", func(ctx SpecContext) {
		_, err := table.DeleteLease(ctx, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-08 get lease", Label("AP-08", designs.MainTable), func() {
	It("returns the lease with its state, account and user", func(ctx SpecContext) {
		lease := newLease(ctx)
		env.Answers(table.GetLease(ctx, lease.ID))(accountpool.Lease{
			ID: lease.ID, State: accountpool.LeaseActive, AccountID: lease.AccountID, UserID: lease.UserID})
	})

	It("reports ErrNotFound for an unknown lease", func(ctx SpecContext) {
		_, err := table.GetLease(ctx, fake.LeaseID())
		env.Refuses(err, designs.ErrNotFound)
	})

	It("reports ErrNotFound for an ended lease, whose item is deleted", func(ctx SpecContext) {
		lease := newLease(ctx)
		_, err := quiet.DeleteLease(ctx, lease.ID)
		Expect(err).NotTo(HaveOccurred())
		_, err = table.GetLease(ctx, lease.ID)
		env.Refuses(err, designs.ErrNotFound)
	})

	It("refuses an empty lease ID with ErrInvalidInput", func(ctx SpecContext) {
		_, err := table.GetLease(ctx, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
