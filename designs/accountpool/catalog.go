package accountpool

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order, which is the design doc's. Specs carry
// them as labels and scenarios name them, so a typo does not compile.
const (
	// ListAllAccountsID is the catalog ID of ListAllAccounts.
	ListAllAccountsID designs.PatternID = "AP-01"
	// ListAvailableAccountsID is the catalog ID of ListAvailableAccounts.
	ListAvailableAccountsID designs.PatternID = "AP-02"
	// ListInitialAccountsID is the catalog ID of ListInitialAccounts.
	ListInitialAccountsID designs.PatternID = "AP-03"
	// RemoveAccountID is the catalog ID of RemoveAccount.
	RemoveAccountID designs.PatternID = "AP-04"
	// AddAccountID is the catalog ID of AddAccount.
	AddAccountID designs.PatternID = "AP-05"
	// MarkAccountAvailableID is the catalog ID of MarkAccountAvailable.
	MarkAccountAvailableID designs.PatternID = "AP-06"
	// ListActiveLeasesID is the catalog ID of ListActiveLeases.
	ListActiveLeasesID designs.PatternID = "AP-07"
	// GetLeaseID is the catalog ID of GetLease.
	GetLeaseID designs.PatternID = "AP-08"
	// GetUserID is the catalog ID of GetUser.
	GetUserID designs.PatternID = "AP-09"
	// CreateLeaseID is the catalog ID of CreateLease.
	CreateLeaseID designs.PatternID = "AP-10"
	// DeleteLeaseID is the catalog ID of DeleteLease.
	DeleteLeaseID designs.PatternID = "AP-11"
	// AddUserID is the catalog ID of AddUser.
	AddUserID designs.PatternID = "AP-12"
)

// Design is the accountpool catalog.
var Design = designs.Design{
	Name:    "accountpool",
	Summary: "a pool of accounts leased to users one at a time; status listings are string sets in single items",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: ListAllAccountsID, Name: "list all accounts", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "every account in the pool whatever its state, read from the all-accounts status item"},
		{ID: ListAvailableAccountsID, Name: "list available accounts", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "the accounts free to lease, read from the available status item"},
		{ID: ListInitialAccountsID, Name: "list initial accounts", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "the accounts added but not yet made available, read from the initial status item"},
		{ID: RemoveAccountID, Name: "remove account", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2 + len(AccountStates),
			Doc: "delete an account that is not leased and take its ID out of every status set"},
		{ID: AddAccountID, Name: "add account", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 3, Grows: []string{attrData},
			Doc: "write a new account as initial and add its ID to the all and initial sets"},
		{ID: MarkAccountAvailableID, Name: "mark account available", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 1 + len(AccountStates), Grows: []string{attrData},
			Doc: "set a non-leased account to available, add it to the available set, drop it from the other state sets"},
		{ID: ListActiveLeasesID, Name: "list active leases", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "the IDs of every active lease, read from the active-lease status item"},
		{ID: GetLeaseID, Name: "get lease", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "a lease by ID: its state, account and user"},
		{ID: GetUserID, Name: "get user", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "a user by email, with the lease and account the user holds, if any"},
		{ID: CreateLeaseID, Name: "create lease", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 6, Grows: []string{attrData},
			Doc: "lease an available account to a user without a lease: write the lease, move the account to leased, update the sets and the user"},
		{ID: DeleteLeaseID, Name: "delete lease", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 6, Grows: []string{attrData},
			Doc: "end an active lease: delete it, return its account to available, clear the user's lease"},
		{ID: AddUserID, Name: "add user", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "write a new user keyed by email; an email already present is refused"},
	},
}
