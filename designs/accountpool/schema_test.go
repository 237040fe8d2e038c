package accountpool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/accountpool"
)

var _ = Describe("key builders", Label("unit"), func() {
	DescribeTable("spell the keys as the design doc does",
		func(got, want string) { Expect(got).To(Equal(want)) },
		Entry("an account", accountpool.AccountKey("111111111111"), "account_id#111111111111"),
		Entry("a lease", accountpool.LeaseKey("abc123-def456"), "lease_id#abc123-def456"),
		Entry("a user", accountpool.UserKey("bill.bob@gmail.com"), "user_id#bill.bob@gmail.com"),
		Entry("the all-accounts status", accountpool.AllAccountsKey(), "account_status#all"),
		Entry("the available status", accountpool.AccountStatusKey(accountpool.StateAvailable), "account_status#available"),
		Entry("the initial status", accountpool.AccountStatusKey(accountpool.StateInitial), "account_status#initial"),
		Entry("the leased status", accountpool.AccountStatusKey(accountpool.StateLeased), "account_status#leased"),
		Entry("the active-lease status", accountpool.ActiveLeasesKey(), "lease_status#active"),
	)
})
