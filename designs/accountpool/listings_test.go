package accountpool_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
)

// pool is one account in each state, plus one removed, all fresh.
type pool struct{ initial, available, leased, removed string }

func newPool(ctx context.Context) pool {
	p := pool{
		initial:   newAccount(ctx, accountpool.StateInitial),
		available: newAccount(ctx, accountpool.StateAvailable),
		leased:    newAccount(ctx, accountpool.StateLeased),
		removed:   newAccount(ctx, accountpool.StateAvailable),
	}
	Expect(quiet.RemoveAccount(ctx, p.removed)).To(Succeed())
	return p
}

func (p pool) own(got []string) []string {
	return own(got, p.initial, p.available, p.leased, p.removed)
}

// A listing is the whole stored set in ascending order: Equal with the
// direct read checks both, and own() checks the spec's accounts exactly.
// Under hostile verify a listing may hand back its read's throttle
// instead (Faulted): a read stores nothing, so that error is all there is
// to check.

var _ = Describe("AP-01 list all accounts", Label("AP-01", designs.MainTable), func() {
	var p pool
	BeforeEach(func(ctx SpecContext) { p = newPool(ctx) })

	It("lists every account in the pool whatever its state, and not a removed one", func(ctx SpecContext) {
		got, err := table.ListAllAccounts(ctx)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(p.own(got)).To(ConsistOf(p.initial, p.available, p.leased))
		Expect(got).To(Equal(storedSet(ctx, accountpool.AllAccountsKey())))
	})

	It("is empty on a table that never held an account", func(ctx SpecContext) {
		Expect(emptyTable(ctx).ListAllAccounts(ctx)).To(BeEmpty())
	})
})

var _ = Describe("AP-02 list available accounts", Label("AP-02", designs.MainTable), func() {
	var p pool
	BeforeEach(func(ctx SpecContext) { p = newPool(ctx) })

	It("lists only the account free to lease", func(ctx SpecContext) {
		got, err := table.ListAvailableAccounts(ctx)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(p.own(got)).To(ConsistOf(p.available))
		Expect(got).To(Equal(storedSet(ctx, accountpool.AccountStatusKey(accountpool.StateAvailable))))
	})

	It("drops an account as soon as it is leased", func(ctx SpecContext) {
		_, err := quiet.CreateLease(ctx, fake.LeaseID(), p.available, newUser(ctx))
		Expect(err).NotTo(HaveOccurred())
		got, err := table.ListAvailableAccounts(ctx)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(p.own(got)).To(BeEmpty())
	})

	It("is empty on a table that never held an account", func(ctx SpecContext) {
		Expect(emptyTable(ctx).ListAvailableAccounts(ctx)).To(BeEmpty())
	})
})

var _ = Describe("AP-03 list initial accounts", Label("AP-03", designs.MainTable), func() {
	var p pool
	BeforeEach(func(ctx SpecContext) { p = newPool(ctx) })

	It("lists only the account not yet made available", func(ctx SpecContext) {
		got, err := table.ListInitialAccounts(ctx)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(p.own(got)).To(ConsistOf(p.initial))
		Expect(got).To(Equal(storedSet(ctx, accountpool.AccountStatusKey(accountpool.StateInitial))))
	})

	It("is empty on a table that never held an account", func(ctx SpecContext) {
		Expect(emptyTable(ctx).ListInitialAccounts(ctx)).To(BeEmpty())
	})
})

var _ = Describe("AP-07 list active leases", Label("AP-07", designs.MainTable), func() {
	var first, second, ended accountpool.Lease
	BeforeEach(func(ctx SpecContext) {
		first, second, ended = newLease(ctx), newLease(ctx), newLease(ctx)
		_, err := table.DeleteLease(ctx, ended.ID)
		Expect(err).NotTo(HaveOccurred())
	})

	It("lists the active leases, oldest first, and not an ended one", func(ctx SpecContext) {
		got, err := table.ListActiveLeases(ctx)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(own(got, first.ID, second.ID, ended.ID)).To(Equal([]string{first.ID, second.ID}))
		Expect(got).To(Equal(storedSet(ctx, accountpool.ActiveLeasesKey())))
	})

	It("is empty on a table that never held a lease", func(ctx SpecContext) {
		Expect(emptyTable(ctx).ListActiveLeases(ctx)).To(BeEmpty())
	})
})
