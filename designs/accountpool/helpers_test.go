package accountpool_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
)

// The status sets are shared by every spec of a process, so specs judge
// them by their own IDs: present in exactly the right sets, absent from the
// rest. Specs of one process run one at a time, so a spec may also compare
// whole items before and after a refused write.

// stored reads the item at pk straight from the table as plain Go values
// (string sets sorted), nil when there is none.
func stored(ctx context.Context, pk string) map[string]any {
	GinkgoHelper()
	raw := env.Item(ctx, accountpool.Schema.Key(pk, ""))
	if raw == nil {
		return nil
	}
	var item map[string]any
	Expect(attributevalue.UnmarshalMap(raw, &item)).To(Succeed())
	for _, v := range item {
		if ids, ok := v.([]string); ok {
			slices.Sort(ids)
		}
	}
	return item
}

// statusKeys are the status items: any write may touch them.
var statusKeys = []string{
	accountpool.AllAccountsKey(),
	accountpool.AccountStatusKey(accountpool.StateInitial),
	accountpool.AccountStatusKey(accountpool.StateAvailable),
	accountpool.AccountStatusKey(accountpool.StateLeased),
	accountpool.ActiveLeasesKey(),
}

// snapshot is every status item plus the items at pks, to show that a
// refused write changed nothing.
func snapshot(ctx context.Context, pks ...string) map[string]map[string]any {
	snap := map[string]map[string]any{}
	for _, pk := range append(slices.Clone(statusKeys), pks...) {
		snap[pk] = stored(ctx, pk)
	}
	return snap
}

// asBefore takes the status items and the items at pks as they stand
// now, and returns the check that they still do: the state a write that
// handed back a fault (env.Faulted) leaves, having written nothing, so no
// item half written and no account moved into a second set.
func asBefore(ctx context.Context, pks ...string) func() {
	before := snapshot(ctx, pks...)
	return func() {
		GinkgoHelper()
		Expect(snapshot(ctx, pks...)).To(Equal(before), "every item as it was before the call")
	}
}

// storedSet is the sorted string set of the status item at pk, read
// directly; empty when the item or its set is missing.
func storedSet(ctx context.Context, pk string) []string {
	ids, _ := stored(ctx, pk)["data"].([]string)
	if ids == nil {
		ids = []string{}
	}
	return ids
}

// setsHolding names the account sets ("all", "initial", "available",
// "leased") whose stored set holds the account.
func setsHolding(ctx context.Context, accountID string) []string {
	sets := map[string]string{"all": accountpool.AllAccountsKey()}
	for _, s := range accountpool.AccountStates {
		sets[string(s)] = accountpool.AccountStatusKey(s)
	}
	var holding []string
	for name, pk := range sets {
		if slices.Contains(storedSet(ctx, pk), accountID) {
			holding = append(holding, name)
		}
	}
	return holding
}

// accountState is the state the account item stores, "" when it is gone.
func accountState(ctx context.Context, accountID string) accountpool.AccountState {
	item := stored(ctx, accountpool.AccountKey(accountID))
	if item == nil {
		return ""
	}
	Expect(item).To(HaveKeyWithValue("type", "account"))
	s, ok := item["data"].(string)
	Expect(ok).To(BeTrue(), "account data is a string: %#v", item["data"])
	return accountpool.AccountState(s)
}

// activeLease reports whether the active-lease set holds the lease.
func activeLease(ctx context.Context, leaseID string) bool {
	return slices.Contains(storedSet(ctx, accountpool.ActiveLeasesKey()), leaseID)
}

// own keeps the IDs of got that are among mine, in got's order.
func own(got []string, mine ...string) []string {
	var kept []string
	for _, id := range got {
		if slices.Contains(mine, id) {
			kept = append(kept, id)
		}
	}
	return kept
}

// The helpers below are setup: they write through quiet, so that a spec
// that makes its accounts, users and leases in its body meets hostile
// verify's faults only in the pattern it proves.

// newAccount adds a fresh account and brings it to state s.
func newAccount(ctx context.Context, s accountpool.AccountState) string {
	id := fake.AccountID()
	_, err := quiet.AddAccount(ctx, id)
	Expect(err).NotTo(HaveOccurred())
	switch s {
	case accountpool.StateAvailable:
		_, err = quiet.MarkAccountAvailable(ctx, id)
	case accountpool.StateLeased:
		_, err = quiet.MarkAccountAvailable(ctx, id)
		Expect(err).NotTo(HaveOccurred())
		_, err = quiet.CreateLease(ctx, fake.LeaseID(), id, newUser(ctx))
	}
	Expect(err).NotTo(HaveOccurred())
	return id
}

// newUser adds a fresh user without a lease.
func newUser(ctx context.Context) string {
	email := fake.Email()
	_, err := quiet.AddUser(ctx, email)
	Expect(err).NotTo(HaveOccurred())
	return email
}

// newLease leases a fresh available account to a fresh user.
func newLease(ctx context.Context) accountpool.Lease {
	l, err := quiet.CreateLease(ctx, fake.LeaseID(), newAccount(ctx, accountpool.StateAvailable), newUser(ctx))
	Expect(err).NotTo(HaveOccurred())
	return l
}

// emptyTable is a second table of this process that never held an item,
// deleted when the spec ends.
func emptyTable(ctx context.Context) accountpool.Table {
	name := designs.TableName(accountpool.Design.Name, fmt.Sprintf("p%d-empty", GinkgoParallelProcess()))
	Expect(designs.CreateTable(ctx, env.DB, accountpool.Schema, name)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) {
		Expect(designs.DeleteTable(ctx, env.DB, name)).To(Succeed())
	})
	return accountpool.Table{DB: env.DB, Name: name}
}
