package accountpool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// Account IDs the patterns refuse before calling DynamoDB.
var badAccountIDs = []TableEntry{
	Entry("an empty ID", ""),
	Entry("eleven digits", "12345678901"),
	Entry("thirteen digits", "1234567890123"),
	Entry("a letter among the digits", "12345678901x"),
}

var _ = Describe("AP-05 add account", Label("AP-05", designs.MainTable), func() {
	var id string
	BeforeEach(func() { id = fake.AccountID() })

	It("adds the account as initial, listed in the all and initial sets only", func(ctx SpecContext) {
		var got accountpool.Account
		err := env.Again(func() (err error) { got, err = table.AddAccount(ctx, id); return err }, asBefore(ctx, accountpool.AccountKey(id)))
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(accountpool.Account{ID: id, State: accountpool.StateInitial}))
		Expect(accountState(ctx, id)).To(Equal(accountpool.StateInitial))
		Expect(setsHolding(ctx, id)).To(ConsistOf("all", "initial"))
	})

	It("refuses an ID already in the pool with ErrAlreadyExists and changes nothing", func(ctx SpecContext) {
		id = newAccount(ctx, accountpool.StateAvailable) // a re-add must not put it back in initial
		unchanged := asBefore(ctx, accountpool.AccountKey(id))
		err := env.Again(func() error { _, err := table.AddAccount(ctx, id); return err }, unchanged)
		env.Refuses(err, designs.ErrAlreadyExists)
		unchanged()
		Expect(setsHolding(ctx, id)).To(ConsistOf("all", "available"))
	})

	It("lets exactly one of 20 concurrent adds of one ID win", func(ctx SpecContext) {
		errs := ddbtest.Race(20, func(int) error {
			_, err := table.AddAccount(ctx, id)
			return err
		})
		env.OnlyWinner(errs, designs.ErrAlreadyExists)
		Expect(accountState(ctx, id)).To(Equal(accountpool.StateInitial))
		Expect(setsHolding(ctx, id)).To(ConsistOf("all", "initial"))
	})

	DescribeTable("refuses a malformed ID with ErrInvalidInput before writing",
		func(ctx SpecContext, bad string) {
			before := snapshot(ctx, accountpool.AccountKey(bad))
			_, err := table.AddAccount(ctx, bad)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(snapshot(ctx, accountpool.AccountKey(bad))).To(Equal(before))
		},
		badAccountIDs,
	)
})

var _ = Describe("AP-04 remove account", Label("AP-04", designs.MainTable), func() {
	DescribeTable("removes the account item and its ID from every set",
		func(ctx SpecContext, state accountpool.AccountState) {
			id := newAccount(ctx, state)
			err := env.Again(func() error { return table.RemoveAccount(ctx, id) }, asBefore(ctx, accountpool.AccountKey(id)))
			if env.Faulted(err) {
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(stored(ctx, accountpool.AccountKey(id))).To(BeNil())
			Expect(setsHolding(ctx, id)).To(BeEmpty())
		},
		Entry("when the account is still initial", accountpool.StateInitial),
		Entry("when the account is available", accountpool.StateAvailable),
	)

	It("refuses a leased account with ErrAccountLeased and changes nothing", func(ctx SpecContext) {
		id := newAccount(ctx, accountpool.StateLeased)
		unchanged := asBefore(ctx, accountpool.AccountKey(id))
		env.Refuses(env.Again(func() error { return table.RemoveAccount(ctx, id) }, unchanged), accountpool.ErrAccountLeased)
		unchanged()
		Expect(setsHolding(ctx, id)).To(ConsistOf("all", "leased"))
	})

	It("reports ErrNotFound for an account never added, writing nothing", func(ctx SpecContext) {
		id := fake.AccountID()
		unchanged := asBefore(ctx, accountpool.AccountKey(id))
		env.Refuses(env.Again(func() error { return table.RemoveAccount(ctx, id) }, unchanged), designs.ErrNotFound)
		unchanged()
	})

	It("lets exactly one of 20 concurrent removals of one account win", func(ctx SpecContext) {
		id := newAccount(ctx, accountpool.StateAvailable)
		env.OnlyWinner(ddbtest.Race(20, func(int) error { return table.RemoveAccount(ctx, id) }), designs.ErrNotFound)
		Expect(stored(ctx, accountpool.AccountKey(id))).To(BeNil())
		Expect(setsHolding(ctx, id)).To(BeEmpty())
	})

	DescribeTable("refuses a malformed ID with ErrInvalidInput",
		func(ctx SpecContext, bad string) {
			Expect(table.RemoveAccount(ctx, bad)).To(MatchError(designs.ErrInvalidInput))
		},
		badAccountIDs,
	)
})

var _ = Describe("AP-06 mark account available", Label("AP-06", designs.MainTable), func() {
	DescribeTable("makes the account available and lists it in the all and available sets only",
		func(ctx SpecContext, state accountpool.AccountState) {
			id := newAccount(ctx, state)
			var got accountpool.Account
			err := env.Again(func() (err error) { got, err = table.MarkAccountAvailable(ctx, id); return err }, asBefore(ctx, accountpool.AccountKey(id)))
			if env.Faulted(err) {
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(accountpool.Account{ID: id, State: accountpool.StateAvailable}))
			Expect(accountState(ctx, id)).To(Equal(accountpool.StateAvailable))
			Expect(setsHolding(ctx, id)).To(ConsistOf("all", "available"))
		},
		Entry("from initial", accountpool.StateInitial),
		Entry("from available, changing nothing", accountpool.StateAvailable),
	)

	It("refuses a leased account with ErrAccountLeased and changes nothing", func(ctx SpecContext) {
		id := newAccount(ctx, accountpool.StateLeased)
		unchanged := asBefore(ctx, accountpool.AccountKey(id))
		err := env.Again(func() error { _, err := table.MarkAccountAvailable(ctx, id); return err }, unchanged)
		env.Refuses(err, accountpool.ErrAccountLeased)
		unchanged()
		Expect(setsHolding(ctx, id)).To(ConsistOf("all", "leased"))
	})

	It("reports ErrNotFound for an account never added, creating nothing", func(ctx SpecContext) {
		id := fake.AccountID()
		unchanged := asBefore(ctx, accountpool.AccountKey(id))
		err := env.Again(func() error { _, err := table.MarkAccountAvailable(ctx, id); return err }, unchanged)
		env.Refuses(err, designs.ErrNotFound)
		unchanged()
	})

	It("lists a removed account nowhere, even when marked concurrently with its removal", func(ctx SpecContext) {
		id := newAccount(ctx, accountpool.StateInitial)
		errs := ddbtest.Race(2, func(i int) error {
			if i == 0 {
				return table.RemoveAccount(ctx, id)
			}
			_, err := table.MarkAccountAvailable(ctx, id)
			return err
		})
		if env.Faulted(errs[0]) { // the removal wrote nothing: the account stands, listed in its state's set only
			want := accountpool.StateInitial
			if !env.Faulted(errs[1]) {
				Expect(errs[1]).NotTo(HaveOccurred())
				want = accountpool.StateAvailable
			}
			Expect(accountState(ctx, id)).To(Equal(want))
			Expect(setsHolding(ctx, id)).To(ConsistOf("all", string(want)))
			return
		}
		Expect(errs[0]).NotTo(HaveOccurred())
		if errs[1] != nil && !env.Faulted(errs[1]) { // the removal came first
			Expect(errs[1]).To(MatchError(designs.ErrNotFound))
		}
		Expect(stored(ctx, accountpool.AccountKey(id))).To(BeNil())
		Expect(setsHolding(ctx, id)).To(BeEmpty())
	})

	DescribeTable("refuses a malformed ID with ErrInvalidInput",
		func(ctx SpecContext, bad string) {
			_, err := table.MarkAccountAvailable(ctx, bad)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		badAccountIDs,
	)
})
