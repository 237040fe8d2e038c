package scenarios

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// AccountPoolLeaseChurn: users lease accounts and hand them back while
// operators grow the pool. Every lease change rewrites three status items
// (one string set each), which grow with the pool.
var AccountPoolLeaseChurn = workload.Scenario{
	Name:     "accountpool/lease-churn",
	About:    "users lease and return accounts while operators grow the pool; every change rewrites the status sets",
	Design:   accountpool.Design,
	Pool:     2000,
	Pacer:    vegeta.ConstantPacer{Freq: 100, Per: time.Second},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: accountpool.CreateLeaseID, Weight: 18, Keys: workload.Zipf{S: 1.1}},
		{Pattern: accountpool.DeleteLeaseID, Weight: 18, Keys: workload.Zipf{S: 1.1}},
		{Pattern: accountpool.GetUserID, Weight: 15, Keys: workload.Zipf{S: 1.1}},
		{Pattern: accountpool.GetLeaseID, Weight: 10, Keys: workload.Zipf{S: 1.1}},
		{Pattern: accountpool.ListAvailableAccountsID, Weight: 15},
		{Pattern: accountpool.ListActiveLeasesID, Weight: 8},
		{Pattern: accountpool.ListAllAccountsID, Weight: 3},
		{Pattern: accountpool.ListInitialAccountsID, Weight: 3},
		{Pattern: accountpool.AddUserID, Weight: 2},
		{Pattern: accountpool.AddAccountID, Weight: 4},
		{Pattern: accountpool.MarkAccountAvailableID, Weight: 3},
		{Pattern: accountpool.RemoveAccountID, Weight: 1},
	},
	Driver: func(db designs.DB, table string, seed int64) workload.Driver {
		return newAccountPoolDriver(db, table, seed, workload.Uniform{})
	},
}

// AccountPoolLeaseRush: the design's own risk. A burst of users lease at
// once, most taking the accounts at the top of the available list, so
// leases contend for the same accounts (accountpool.ErrAccountNotAvailable is
// the expected outcome for the losers) and every one of them rewrites the
// same status items.
var AccountPoolLeaseRush = workload.Scenario{
	Name:     "accountpool/lease-rush",
	About:    "a burst of users leasing the top of the available list: contention on accounts and on the status items",
	Design:   accountpool.Design,
	Pool:     2000,
	Pacer:    vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 100, Per: time.Second}, Amp: vegeta.Rate{Freq: 80, Per: time.Second}, StartAt: vegeta.Trough},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: accountpool.CreateLeaseID, Weight: 45, Keys: workload.Zipf{S: 1.3}},
		{Pattern: accountpool.DeleteLeaseID, Weight: 30, Keys: workload.Zipf{S: 1.3}},
		{Pattern: accountpool.ListAvailableAccountsID, Weight: 20},
		{Pattern: accountpool.ListActiveLeasesID, Weight: 5},
	},
	Driver: func(db designs.DB, table string, seed int64) workload.Driver {
		return newAccountPoolDriver(db, table, seed, workload.Zipf{S: 1.3})
	},
}

// accountPoolDriver calls the accountpool patterns: key k is the k-th
// seeded user and account. It keeps what the run changes: each account's
// state and the lease each user holds, as the last successful call left
// them, so that a lease goes to a user without one and an available
// account, and an end of lease to a lease that is active. Concurrent calls
// may still race for one account or lease: the design refuses the loser.
type accountPoolDriver struct {
	t       accountpool.Table
	seed    int64
	pick    workload.Dist // where a lease starts looking for an available account
	pool    fixtures.SeededAccountPool
	index   map[string]int // seeded account ID → position
	state   []guarded[accountpool.AccountState]
	holds   []guarded[string] // the lease each seeded user holds, "" for none
	added   stack[string]     // accounts added during the run
	counter atomic.Int64      // numbers the accounts and users a run adds
}

func newAccountPoolDriver(db designs.DB, table string, seed int64, pick workload.Dist) *accountPoolDriver {
	return &accountPoolDriver{t: accountpool.Table{DB: db, Name: table}, seed: seed, pick: pick}
}

// Seed writes n accounts and n users, some leases among them.
func (d *accountPoolDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewAccountPool(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, accountpool.Schema), n, progress)
	if err != nil {
		return err
	}
	d.pool, d.index = pool, make(map[string]int, n)
	d.state, d.holds = make([]guarded[accountpool.AccountState], n), make([]guarded[string], n)
	for i, a := range pool.Accounts {
		d.index[a.ID] = i
		d.state[i].v, d.holds[i].v = a.State, pool.Users[i].LeaseID
	}
	return nil
}

// noAccount is an account ID (twelve digits, as the design wants) that no
// seeded or added account has.
const noAccount = "000000000000"

// Call runs p around the key-th user and account.
func (d *accountPoolDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	n := len(d.state)
	if n == 0 {
		return ErrNotSeeded
	}
	key %= n
	var err error
	switch p {
	case accountpool.ListAllAccountsID:
		_, err = d.t.ListAllAccounts(ctx)
	case accountpool.ListAvailableAccountsID:
		_, err = d.t.ListAvailableAccounts(ctx)
	case accountpool.ListInitialAccountsID:
		_, err = d.t.ListInitialAccounts(ctx)
	case accountpool.ListActiveLeasesID:
		_, err = d.t.ListActiveLeases(ctx)
	case accountpool.GetUserID:
		_, err = d.t.GetUser(ctx, d.pool.Users[key].Email)
	case accountpool.GetLeaseID:
		u, _ := scan(key, n, func(i int) bool { return d.holds[i].get() != "" })
		_, err = d.t.GetLease(ctx, cmp.Or(d.holds[u].get(), noID))
	case accountpool.CreateLeaseID:
		err = d.lease(ctx, key, r)
	case accountpool.DeleteLeaseID:
		err = d.unlease(ctx, key)
	case accountpool.AddUserID:
		email := fmt.Sprintf("load.%d@%s", d.counter.Add(1), fixtures.Live[fixtures.AccountPool](r, time.Now()).DomainName())
		_, err = d.t.AddUser(ctx, email)
	case accountpool.AddAccountID:
		id := fmt.Sprintf("9%0*d", accountpool.AccountIDLen-1, d.counter.Add(1))
		made := d.added.start(id)
		_, err = d.t.AddAccount(ctx, id)
		made(err == nil)
	case accountpool.RemoveAccountID:
		id, ok := d.added.pop(ctx)
		if !ok {
			id = noAccount
		}
		err = d.t.RemoveAccount(ctx, id)
	case accountpool.MarkAccountAvailableID:
		a, _ := scan(key, n, func(i int) bool { return d.state[i].get() == accountpool.StateInitial })
		if _, err = d.t.MarkAccountAvailable(ctx, d.pool.Accounts[a].ID); err == nil {
			d.state[a].set(accountpool.StateAvailable)
		}
	default:
		err = unknown(accountpool.Design.Name, p)
	}
	return err
}

// lease gives the key-th user (or the next without a lease) an available
// account, looking from where d.pick points.
func (d *accountPoolDriver) lease(ctx context.Context, key int, r *rand.Rand) error {
	n := len(d.state)
	u, _ := scan(key, n, func(i int) bool { return d.holds[i].get() == "" })
	a, _ := scan(d.pick.Pick(r, n), n, func(i int) bool { return d.state[i].get() == accountpool.StateAvailable })
	id := fixtures.Live[fixtures.AccountPool](r, time.Now()).LeaseID()
	if _, err := d.t.CreateLease(ctx, id, d.pool.Accounts[a].ID, d.pool.Users[u].Email); err != nil {
		return err
	}
	d.holds[u].set(id)
	d.state[a].set(accountpool.StateLeased)
	return nil
}

// unlease ends the lease of the key-th user (or the next with one).
func (d *accountPoolDriver) unlease(ctx context.Context, key int) error {
	u, _ := scan(key, len(d.state), func(i int) bool { return d.holds[i].get() != "" })
	id := cmp.Or(d.holds[u].get(), noID)
	l, err := d.t.DeleteLease(ctx, id)
	if err != nil {
		return err
	}
	d.holds[u].do(func(v *string) {
		if *v == id {
			*v = ""
		}
	})
	if a, ok := d.index[l.AccountID]; ok {
		d.state[a].set(accountpool.StateAvailable)
	}
	return nil
}
