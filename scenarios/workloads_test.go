package scenarios_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// Known workloads: a short fixed sequence of one design's pattern calls
// through the instrumented client into a ledger.Ledger, each call's
// charges checked per partition of the table and of each index against
// figures derived by hand from AWS's rules, then the ledger's totals per
// partition against their sum.
//
// The rules the figures apply (bench/capacity cites the AWS pages):
//   - a write is one WCU per 1 KB of the larger of the item's before and
//     after images, charged on the item's table partition; in a transaction
//     two (prepare and commit), also for a ConditionCheck;
//   - each index whose entry the write adds or removes is one WCU per 1 KB
//     of the entry on the entry's index partition; an entry changed in
//     place is one write of the larger entry; an entry whose index key
//     changes is a removal from the old partition and an addition to the
//     new one; an entry the write leaves as it was costs nothing; index
//     writes are not doubled in transactions;
//   - a GetItem is one RCU per 4 KB of the item strongly consistent, half
//     eventually consistent; a Query sums the items it read (the page and
//     the one more QueryPage asks for) and rounds the sum up to 4 KB once,
//     charged on the partition it read; GSIs read eventually consistent.
//
// Every item of these workloads is a few hundred bytes, where a spec does
// not say otherwise (the scan at the end checks that each is at most 1 KB),
// so each item write is one unit and no read reaches 4 KB: the figures are
// the unit counts and the partitions they land on.

// at is one partition key of the table (designs.MainTable) or of an index.
type at struct{ Target, Key string }

// units are read and write capacity units.
type units struct{ RCU, WCU float64 }

// spent is what a call or a run charged, per partition.
type spent map[at]units

func (s spent) add(more spent) {
	for k, u := range more {
		t := s[k]
		s[k] = units{t.RCU + u.RCU, t.WCU + u.WCU}
	}
}

// mainTable is the table's target in charges.
const mainTable = designs.MainTable

// metered runs one design's calls on a fresh table through an instrumented
// client whose every observation goes into a ledger.
type metered struct {
	design designs.Design
	table  string
	client *meter.Client
	ledger *ledger.Ledger
	want   spent // the sum of every call's expected charges

	mu      sync.Mutex
	charges []pricing.Charge // of the call under way
}

func newMeter(ctx context.Context, d designs.Design) *metered {
	GinkgoHelper()
	m := &metered{design: d, table: newTable(ctx, d, "workload"), client: meter.NewClient(db, d.Schema),
		ledger: ledger.NewLedger(d.Schema), want: spent{}}
	m.client.Observe(func(_ context.Context, o pricing.Observation) {
		charges := m.ledger.Observe(o)
		m.mu.Lock()
		defer m.mu.Unlock()
		m.charges = append(m.charges, charges...)
	})
	return m
}

// call runs one call of pattern p and checks that it charged exactly want,
// every charge attributed to p.
func (m *metered) call(ctx context.Context, p designs.PatternID, want spent, call func(ctx context.Context) error) {
	GinkgoHelper()
	m.mu.Lock()
	m.charges = nil
	m.mu.Unlock()
	Expect(call(designs.WithPattern(ctx, p))).To(Succeed(), "%s", p)
	m.mu.Lock()
	defer m.mu.Unlock()
	got := spent{}
	for _, c := range m.charges {
		Expect(c.Pattern).To(Equal(p), "a charge of %s on %s %s", p, c.Target, c.Key)
		got.add(spent{{c.Target, c.Key}: {c.RCU, c.WCU}})
	}
	Expect(got).To(Equal(want), "%s", p)
	m.want.add(want)
}

// finish checks the ledger's run totals per partition and per target (the
// Report's Hot keys and Targets) against the sum of the calls' figures,
// that the client's images are the table's and none approximate, and that
// every stored item is at most 1 KB but the ones named in large.
func (m *metered) finish(ctx context.Context, large ...string) {
	GinkgoHelper()
	Expect(m.client.Settle(ctx).Approximations).To(BeZero(), "writes whose after image the client could not compute")
	r := capacity.Model{Schema: m.design.Schema, TopN: 1000}.Analyze(m.ledger)
	hot := spent{}
	for _, h := range r.Hot {
		hot.add(spent{{h.Target, h.Key}: {h.RCU, h.WCU}})
	}
	Expect(hot).To(Equal(m.want), "the run's units per partition")

	type total struct {
		units
		keys int
	}
	want, got := map[string]total{}, map[string]total{}
	for k, u := range m.want {
		t := want[k.Target]
		want[k.Target] = total{units{t.RCU + u.RCU, t.WCU + u.WCU}, t.keys + 1}
	}
	for _, t := range r.Targets {
		got[t.Target] = total{units{t.RCU, t.WCU}, t.Keys}
	}
	Expect(got).To(Equal(want), "the run's units per table and index")

	s := m.design.Schema
	stored := storedItems(ctx, s, m.table)
	expectSameItems(shadowItems(m.client, s, m.table), stored, "after the workload")
	for id, item := range stored {
		if !slices.Contains(large, id) {
			Expect(ddbitem.Size(item)).To(BeNumerically("<=", 1024), "item %s", id)
		}
	}
}

// t0 is the workloads' clock: a whole second, so that KSUIDs made of it
// are the IDs of things created at it.
var t0 = time.Date(2024, time.March, 5, 9, 30, 0, 0, time.UTC)

// id is the n-th KSUID of second t.
func id(t time.Time, n byte) string { return designs.IDFrom(t, [16]byte{n}) }

var _ = Describe("capacity attribution of known workloads", attributionSpecs, func() {
	It("charges invoicing's clients, invoices and line items to their own partitions", func(ctx SpecContext) {
		m := newMeter(ctx, invoicing.Design)
		t := invoicing.Table{DB: m.client, Name: m.table}
		c := invoicing.Client{ID: id(t0, 1), Name: "Ada Lovelace", Email: "ada@example.com", Address: "12 St James's Sq, London", CreatedAt: t0}
		inv := invoicing.Invoice{ID: id(t0, 2), ClientID: c.ID, Number: "INV-0001", IssuedAt: t0, DueAt: t0.AddDate(0, 0, 30)}
		var lines []invoicing.LineItem
		for n := 1; n <= 3; n++ {
			lines = append(lines, invoicing.LineItem{ID: invoicing.LineItemID(n), Description: "consulting, day " + invoicing.LineItemID(n), Quantity: n, UnitPriceCents: 80_000})
		}
		client := invoicing.ClientPK(c.ID)
		line := func(n int) string { return invoicing.LineItemKey(inv.ID, invoicing.LineItemID(n)) }
		gsi1 := at{invoicing.GSI1, invoicing.InvoiceGSI1PK(inv.ID)}

		// AP-02, one transaction of two puts: the client on its partition
		// and the email item on its own, 2 WCU each. Neither carries GSI1PK:
		// no GSI1 write.
		m.call(ctx, invoicing.CreateClientID, spent{
			{mainTable, client}:                            {WCU: 2},
			{mainTable, invoicing.ClientEmailKey(c.Email)}: {WCU: 2},
		}, func(ctx context.Context) error { return t.CreateClient(ctx, c) })

		// AP-03, one transaction of six actions, 2 WCU each on the table:
		// the check of the client and the invoice share the client's
		// partition (4), the number item and each line item have their
		// own. On GSI1 the invoice and its three lines add four entries to
		// the invoice's partition, 1 WCU each, not doubled.
		m.call(ctx, invoicing.CreateInvoiceID, spent{
			{mainTable, client}: {WCU: 4},
			{mainTable, invoicing.InvoiceNumberKey(inv.Number)}: {WCU: 2},
			{mainTable, line(1)}: {WCU: 2},
			{mainTable, line(2)}: {WCU: 2},
			{mainTable, line(3)}: {WCU: 2},
			gsi1:                 {WCU: 4},
		}, func(ctx context.Context) error { _, err := t.CreateInvoice(ctx, inv, lines); return err })

		// AP-07, a Query of the invoice's GSI1 partition: four entries, one
		// 4 KB unit, eventually consistent: 0.5 RCU there.
		m.call(ctx, invoicing.ViewInvoiceID, spent{gsi1: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.ViewInvoice(ctx, inv.ID); return err })

		// AP-04 drops the third line. A strongly consistent GetItem of the
		// invoice: 1 RCU on the client's partition. Then one transaction:
		// the invoice put again (2 WCU there), lines 1 and 2 put again as
		// they were (2 WCU each on the table, their GSI1 entries unchanged:
		// none), line 3 deleted (2 WCU). On GSI1 the invoice's entry
		// changes in place (version, total, line IDs) and line 3's goes: 2.
		inv.DueAt = inv.DueAt.AddDate(0, 0, 15)
		m.call(ctx, invoicing.UpdateInvoiceID, spent{
			{mainTable, client}:  {RCU: 1, WCU: 2},
			{mainTable, line(1)}: {WCU: 2},
			{mainTable, line(2)}: {WCU: 2},
			{mainTable, line(3)}: {WCU: 2},
			gsi1:                 {WCU: 2},
		}, func(ctx context.Context) error { _, err := t.UpdateInvoice(ctx, inv, lines[:2]); return err })

		// AP-06, a Query of the client's partition: the client and its
		// invoice, one 4 KB unit, eventually consistent: 0.5 RCU.
		m.call(ctx, invoicing.ViewClientRecentInvoicesID, spent{{mainTable, client}: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.ViewClientRecentInvoices(ctx, c.ID, 10, ""); return err })
		m.finish(ctx)
	})

	It("charges shop's constant partitions, and an order's status change to both status partitions", func(ctx SpecContext) {
		m := newMeter(ctx, shop.Design)
		t := shop.Table{DB: m.client, Name: m.table}
		cat := shop.Category{ID: id(t0, 1), Name: "Kitchen", CreatedAt: t0, UpdatedAt: t0}
		brand := shop.Brand{ID: id(t0, 2), Name: "Acme", CreatedAt: t0, UpdatedAt: t0}
		prod := shop.Product{ID: id(t0, 3), Name: "Kettle", PriceCents: 2_999, Stock: 10, CategoryID: cat.ID, BrandID: brand.ID, CreatedAt: t0, UpdatedAt: t0}
		user := shop.User{ID: id(t0, 4), Name: "Ada Lovelace", Email: "Ada@Example.com", PasswordHash: "$2a$10$abcdefghijklmnopqrstuv", CreatedAt: t0, UpdatedAt: t0}
		t1 := t0.Add(time.Minute)
		order := shop.Order{ID: id(t1, 5), UserID: user.ID, CreatedAt: t1,
			Items: []shop.OrderItem{{ProductID: prod.ID, Quantity: 2, PriceCents: prod.PriceCents}}}
		brandProducts := at{shop.GSI1, shop.ProductGSI1PK(brand.ID)}
		categoryProducts := at{shop.GSI2, shop.ProductGSI2PK(cat.ID)}
		pending := at{shop.GSI1, shop.OrderStatusKey(shop.StatusPending)}
		paid := at{shop.GSI1, shop.OrderStatusKey(shop.StatusPaid)}

		// AP-22 and AP-23, a conditional PutItem each: 1 WCU on the
		// constant partition (CAT, BRAND), and 1 WCU for the name entry
		// on LSI1, which keys on the table's partition key.
		m.call(ctx, shop.CreateCategoryID, spent{{mainTable, shop.CategoriesPK}: {WCU: 1}, {shop.LSI1, shop.CategoriesPK}: {WCU: 1}},
			func(ctx context.Context) error { return t.CreateCategory(ctx, cat) })
		m.call(ctx, shop.CreateBrandID, spent{{mainTable, shop.BrandsPK}: {WCU: 1}, {shop.LSI1, shop.BrandsPK}: {WCU: 1}},
			func(ctx context.Context) error { return t.CreateBrand(ctx, brand) })

		// AP-24, a transaction: the product put on PROD and a check of its
		// brand and of its category on their partitions, 2 WCU each. The
		// product adds an entry to its brand's GSI1 partition and to its
		// category's GSI2 partition, 1 WCU each; the checks write no index.
		m.call(ctx, shop.CreateProductID, spent{
			{mainTable, shop.ProductsPK}:   {WCU: 2},
			{mainTable, shop.BrandsPK}:     {WCU: 2},
			{mainTable, shop.CategoriesPK}: {WCU: 2},
			brandProducts:                  {WCU: 1},
			categoryProducts:               {WCU: 1},
		}, func(ctx context.Context) error { return t.CreateProduct(ctx, prod) })

		// AP-21, a transaction of two puts, 2 WCU each: the user on USER,
		// the email reservation on its own partition. The user adds an
		// entry to LSI1 (USER) and to GSI1 (USER), 1 WCU each.
		m.call(ctx, shop.CreateUserID, spent{
			{mainTable, shop.UsersPK}:                  {WCU: 2},
			{mainTable, shop.UserEmailKey(user.Email)}: {WCU: 2},
			{shop.LSI1, shop.UsersPK}:                  {WCU: 1},
			{shop.GSI1, shop.UsersPK}:                  {WCU: 1},
		}, func(ctx context.Context) error { return t.CreateUser(ctx, user) })

		// AP-25, a transaction, 2 WCU per action: the order put on its
		// user's partition, the user checked on USER, the product's stock
		// taken on PROD. GSI1: the order's entry added to PENDING, the
		// product's entry under its brand changed in place (stock); GSI2:
		// the product's entry under its category changed in place: 1 WCU
		// each.
		m.call(ctx, shop.PlaceOrderID, spent{
			{mainTable, shop.UserOrdersPK(user.ID)}: {WCU: 2},
			{mainTable, shop.UsersPK}:               {WCU: 2},
			{mainTable, shop.ProductsPK}:            {WCU: 2},
			pending:                                 {WCU: 1},
			brandProducts:                           {WCU: 1},
			categoryProducts:                        {WCU: 1},
		}, func(ctx context.Context) error { _, err := t.PlaceOrder(ctx, order); return err })

		// AP-26, an UpdateItem: 1 WCU on the user's partition. The order's
		// GSI1 key moves from PENDING to PAID: the entry is removed from
		// one partition and added to the other, 1 WCU each.
		m.call(ctx, shop.UpdateOrderStatusID, spent{
			{mainTable, shop.UserOrdersPK(user.ID)}: {WCU: 1},
			pending:                                 {WCU: 1},
			paid:                                    {WCU: 1},
		}, func(ctx context.Context) error {
			_, err := t.UpdateOrderStatus(ctx, user.ID, order.ID, shop.StatusPaid, t1.Add(time.Hour))
			return err
		})

		// AP-20, a Query of GSI1's PAID partition: one order, 0.5 RCU.
		m.call(ctx, shop.ListOrdersByStatusID, spent{paid: {RCU: 0.5}},
			func(ctx context.Context) error {
				_, err := t.ListOrdersByStatus(ctx, shop.StatusPaid, t0, 10, "")
				return err
			})

		// AP-02, a Query of LSI1 on USER: one user, eventually consistent,
		// 0.5 RCU on LSI1's USER partition (which lives with the table's).
		m.call(ctx, shop.GetUserByEmailID, spent{{shop.LSI1, shop.UsersPK}: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.GetUserByEmail(ctx, user.Email); return err })
		m.finish(ctx)
	})

	It("charges every item an accountpool transaction touches, status items included", func(ctx SpecContext) {
		m := newMeter(ctx, accountpool.Design)
		t := accountpool.Table{DB: m.client, Name: m.table}
		const account, email = "123456789012", "ada@example.com"
		lease := id(t0, 1)
		acc := accountpool.AccountKey(account)
		all, initial := accountpool.AllAccountsKey(), accountpool.AccountStatusKey(accountpool.StateInitial)
		available, leased := accountpool.AccountStatusKey(accountpool.StateAvailable), accountpool.AccountStatusKey(accountpool.StateLeased)
		active, user := accountpool.ActiveLeasesKey(), accountpool.UserKey(email)

		// The table has no index: every charge is on the table, 2 WCU per
		// item a transaction writes. AP-05: the account, and its ID added
		// to the all and initial sets (items the update creates).
		m.call(ctx, accountpool.AddAccountID, spent{{mainTable, acc}: {WCU: 2}, {mainTable, all}: {WCU: 2}, {mainTable, initial}: {WCU: 2}},
			func(ctx context.Context) error { _, err := t.AddAccount(ctx, account); return err })

		// AP-06: the account, its ID added to the available set and taken
		// from the initial set (which it leaves empty) and from the leased
		// set (an item the update creates holding no set).
		m.call(ctx, accountpool.MarkAccountAvailableID, spent{
			{mainTable, acc}: {WCU: 2}, {mainTable, available}: {WCU: 2}, {mainTable, initial}: {WCU: 2}, {mainTable, leased}: {WCU: 2},
		}, func(ctx context.Context) error { _, err := t.MarkAccountAvailable(ctx, account); return err })

		// AP-02, a strongly consistent GetItem of the available set: 1 RCU,
		// for the whole item although it projects the set alone.
		m.call(ctx, accountpool.ListAvailableAccountsID, spent{{mainTable, available}: {RCU: 1}},
			func(ctx context.Context) error { _, err := t.ListAvailableAccounts(ctx); return err })

		// AP-12, a conditional PutItem: 1 WCU.
		m.call(ctx, accountpool.AddUserID, spent{{mainTable, user}: {WCU: 1}},
			func(ctx context.Context) error { _, err := t.AddUser(ctx, email); return err })

		// AP-10, six actions: the lease, the active set, the account, the
		// available and leased sets, the user.
		m.call(ctx, accountpool.CreateLeaseID, spent{
			{mainTable, accountpool.LeaseKey(lease)}: {WCU: 2}, {mainTable, active}: {WCU: 2}, {mainTable, acc}: {WCU: 2},
			{mainTable, available}: {WCU: 2}, {mainTable, leased}: {WCU: 2}, {mainTable, user}: {WCU: 2},
		}, func(ctx context.Context) error { _, err := t.CreateLease(ctx, lease, account, email); return err })

		// AP-11, a strongly consistent GetItem of the lease (1 RCU), then
		// six actions: the same six items, the lease deleted.
		m.call(ctx, accountpool.DeleteLeaseID, spent{
			{mainTable, accountpool.LeaseKey(lease)}: {RCU: 1, WCU: 2}, {mainTable, active}: {WCU: 2}, {mainTable, acc}: {WCU: 2},
			{mainTable, available}: {WCU: 2}, {mainTable, leased}: {WCU: 2}, {mainTable, user}: {WCU: 2},
		}, func(ctx context.Context) error { _, err := t.DeleteLease(ctx, lease); return err })
		m.finish(ctx)
	})

	It("charges agencies' members to their agency's partition and their user's GSI2 partition", func(ctx SpecContext) {
		m := newMeter(ctx, agencies.Design)
		t := agencies.Table{DB: m.client, Name: m.table}
		const admin, idp = "okta|admin", "okta|ada"
		ag := agencies.Agency{ID: id(t0, 1), Name: "Northwind", Status: "active", Audit: agencies.Audit{Created: t0, CreatedBy: admin}}
		mem := agencies.Member{AgencyID: ag.ID, IdpID: idp, Audit: agencies.Audit{Created: t0.Add(time.Second), CreatedBy: admin}}
		agency := agencies.AgencyPK(ag.ID)
		directory := at{agencies.GSI1, agencies.TypeAgency}

		// AP-01, a conditional PutItem: 1 WCU on the agency's partition,
		// 1 WCU for its entry on GSI1's "Agency" partition. An agency has
		// no idpid: no GSI2 entry (sparse).
		m.call(ctx, agencies.CreateAgencyID, spent{{mainTable, agency}: {WCU: 1}, directory: {WCU: 1}},
			func(ctx context.Context) error { return t.CreateAgency(ctx, ag) })

		// AP-04, a transaction: the check of the agency and the put of the
		// member share the agency's partition, 2 WCU each. The member adds
		// an entry to GSI1's "Member" partition and to its user's GSI2
		// partition, 1 WCU each.
		m.call(ctx, agencies.CreateMemberID, spent{
			{mainTable, agency}:                  {WCU: 4},
			{agencies.GSI1, agencies.TypeMember}: {WCU: 1},
			{agencies.GSI2, idp}:                 {WCU: 1},
		}, func(ctx context.Context) error { return t.CreateMember(ctx, mem) })

		// AP-02, an UpdateItem giving the agency a 1,100-byte name: the
		// larger image, the one after, is over 1 KB and under 2 KB (checked
		// below): 2 WCU on the table, and 2 WCU for its GSI1 entry, changed
		// in place (ALL projection: the entry is the item).
		long := strings.Repeat("n", 1100)
		m.call(ctx, agencies.UpdateAgencyID, spent{{mainTable, agency}: {WCU: 2}, directory: {WCU: 2}},
			func(ctx context.Context) error {
				_, err := t.UpdateAgency(ctx, ag.ID, agencies.AgencyUpdate{Name: long}, agencies.Edit{By: admin, At: t0.Add(time.Hour)})
				return err
			})
		stored := getStored(ctx, m.table, agencies.Schema.Key(agency, agencies.AgencySK(ag.ID)))
		Expect(ddbitem.Size(stored)).To(And(BeNumerically(">", 1024), BeNumerically("<=", 2048)), "the renamed agency")

		// AP-09, a Query of GSI1's "Agency" partition: one entry under 4 KB,
		// 0.5 RCU. AP-10, a Query of the user's GSI2 partition: 0.5 RCU.
		// AP-08, a strongly consistent Query of the agency's partition from
		// MEMBER#: one member, 1 RCU.
		m.call(ctx, agencies.ListAgenciesID, spent{directory: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.ListAgencies(ctx, 50, ""); return err })
		m.call(ctx, agencies.ListMembershipsID, spent{{agencies.GSI2, idp}: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.ListMemberships(ctx, idp, 50, ""); return err })
		m.call(ctx, agencies.ListAgencyMembersID, spent{{mainTable, agency}: {RCU: 1}},
			func(ctx context.Context) error { _, err := t.ListAgencyMembers(ctx, ag.ID, 50, ""); return err })
		m.finish(ctx, itemID(agencies.Schema, agencies.Schema.Key(agency, agencies.AgencySK(ag.ID))))
	})

	It("charges a service's voucher to the sparse index and its new date to another year's partition", func(ctx SpecContext) {
		m := newMeter(ctx, services.Design)
		t := services.Table{DB: m.client, Name: m.table}
		const program = "transit"
		sv := services.Service{ClientID: id(t0, 1), ID: id(t0, 2), Date: "2024-03-05",
			Details: services.Details{Kind: "transit pass", Units: 2, Notes: "monthly pass, zones 1-2"}, RecordedAt: t0}
		v := services.Voucher{Code: "TRN-000123", Program: program, AmountCents: 5_000, IssuedAt: t0.Add(time.Minute)}
		client := services.ClientPK(sv.ClientID)
		awaiting := at{services.AwaitingVoucher, services.ProgramPK(program)}
		y2024, y2025 := at{services.ByYear, "2024"}, at{services.ByYear, "2025"}

		// AP-01, a conditional PutItem: 1 WCU on the client's partition,
		// 1 WCU for the entry on ByYear's 2024 partition; no voucher, so
		// no AwaitingVoucher entry (sparse).
		m.call(ctx, services.RecordServiceID, spent{{mainTable, client}: {WCU: 1}, y2024: {WCU: 1}},
			func(ctx context.Context) error { return t.RecordService(ctx, sv) })

		// AP-09, an UpdateItem: 1 WCU on the table, the ByYear entry
		// changed in place (1 WCU), an entry added to the program's
		// AwaitingVoucher partition (1 WCU).
		m.call(ctx, services.IssueVoucherID, spent{{mainTable, client}: {WCU: 1}, y2024: {WCU: 1}, awaiting: {WCU: 1}},
			func(ctx context.Context) error { _, err := t.IssueVoucher(ctx, sv.Key(), v); return err })

		// AP-11, a Query of the program's partition: one entry, 0.5 RCU.
		m.call(ctx, services.ListAwaitingVouchersID, spent{awaiting: {RCU: 0.5}},
			func(ctx context.Context) error { _, err := t.ListAwaitingVouchers(ctx, program, 50, ""); return err })

		// AP-10, an UpdateItem that REMOVEs the sparse keys: 1 WCU on the
		// table, ByYear in place (1), the AwaitingVoucher entry removed (1).
		m.call(ctx, services.FulfilVoucherID, spent{{mainTable, client}: {WCU: 1}, y2024: {WCU: 1}, awaiting: {WCU: 1}},
			func(ctx context.Context) error {
				_, err := t.FulfilVoucher(ctx, sv.Key(), t0.Add(time.Hour))
				return err
			})

		// AP-05 to a day of 2025: a strongly consistent GetItem (1 RCU),
		// then a transaction deleting the item and putting it at its new
		// sort key, 2 WCU each on the client's partition. On ByYear the
		// entry leaves 2024 and joins 2025, 1 WCU each; the fulfilled
		// voucher keeps it out of AwaitingVoucher.
		m.call(ctx, services.RescheduleServiceID, spent{{mainTable, client}: {RCU: 1, WCU: 4}, y2024: {WCU: 1}, y2025: {WCU: 1}},
			func(ctx context.Context) error {
				_, err := t.RescheduleService(ctx, sv.Key(), "2025-01-10")
				return err
			})

		// AP-03, a strongly consistent Query of the client's partition: one
		// service, 1 RCU.
		m.call(ctx, services.ListHistoryID, spent{{mainTable, client}: {RCU: 1}},
			func(ctx context.Context) error { _, err := t.ListHistory(ctx, sv.ClientID, 50, ""); return err })
		m.finish(ctx)
	})

	It("charges racing status changes of one order to the status partitions each really left and joined", func(ctx SpecContext) {
		m := newMeter(ctx, shop.Design)
		t := shop.Table{DB: m.client, Name: m.table}
		cat := shop.Category{ID: id(t0, 1), Name: "Kitchen", CreatedAt: t0, UpdatedAt: t0}
		brand := shop.Brand{ID: id(t0, 2), Name: "Acme", CreatedAt: t0, UpdatedAt: t0}
		prod := shop.Product{ID: id(t0, 3), Name: "Kettle", PriceCents: 2_999, Stock: 10, CategoryID: cat.ID, BrandID: brand.ID, CreatedAt: t0, UpdatedAt: t0}
		user := shop.User{ID: id(t0, 4), Name: "Ada Lovelace", Email: "ada@example.com", CreatedAt: t0, UpdatedAt: t0}
		order := shop.Order{ID: id(t0, 5), UserID: user.ID, CreatedAt: t0, Items: []shop.OrderItem{{ProductID: prod.ID, Quantity: 1, PriceCents: prod.PriceCents}}}
		Expect(t.CreateCategory(ctx, cat)).To(Succeed())
		Expect(t.CreateBrand(ctx, brand)).To(Succeed())
		Expect(t.CreateProduct(ctx, prod)).To(Succeed())
		Expect(t.CreateUser(ctx, user)).To(Succeed())
		_, err := t.PlaceOrder(ctx, order)
		Expect(err).NotTo(HaveOccurred())
		key := shop.Schema.Key(shop.UserOrdersPK(user.ID), shop.OrderSK(order.ID))
		placed := getStored(ctx, m.table, key)

		// AP-26 from 8 goroutines at once, 30 times over, each call to a
		// status and a second of its own. DynamoDB applies the calls of a
		// round one after the other, but their responses may come back in
		// another order.
		const racers, rounds = 8, 30
		statuses := []shop.OrderStatus{shop.StatusPaid, shop.StatusShipped, shop.StatusDelivered, shop.StatusCancelled}
		rec := &meter.Recorder{}
		m.client.Observe(rec.Observe)
		l := ledger.NewLedger(shop.Schema)
		for round := range rounds {
			errs := ddbtest.Race(racers, func(i int) error {
				when := t0.Add(time.Duration(1+round*racers+i) * time.Second)
				_, err := t.UpdateOrderStatus(designs.WithPattern(ctx, shop.UpdateOrderStatusID), user.ID, order.ID, statuses[i%len(statuses)], when)
				return err
			})
			Expect(errors.Join(errs...)).NotTo(HaveOccurred())
		}
		var writes []pricing.Write
		for _, o := range rec.Take() {
			l.Observe(o)
			writes = append(writes, o.Writes...)
		}
		Expect(writes).To(HaveLen(racers * rounds))

		// Each write's images must be the order as DynamoDB held it before
		// and after that write: then they chain, one write after another,
		// from the placed order to the order as stored.
		want := spent{{mainTable, shop.UserOrdersPK(user.ID)}: {WCU: racers * rounds}}
		status := func(img ddbitem.Item) string { return ddbitem.KeyText(img["GSI1PK"]) }
		cur, left := placed, slices.Clone(writes)
		for len(left) > 0 {
			i := slices.IndexFunc(left, func(w pricing.Write) bool {
				return ddbitem.Equal(w.Before, cur)
			})
			Expect(i).NotTo(Equal(-1), "no write took the order on from %s at %s; %d writes left", status(cur), ddbitem.KeyText(cur["GSI1SK"]), len(left))
			// Each moves the order's GSI1 entry (its sort key is the
			// change's time): 1 WCU on the partition of the status it left,
			// 1 WCU on the one it joined.
			w := left[i]
			want.add(spent{{shop.GSI1, status(w.Before)}: {WCU: 1}})
			want.add(spent{{shop.GSI1, status(w.After)}: {WCU: 1}})
			cur, left = w.After, slices.Delete(left, i, i+1)
		}
		Expect(cur).To(ddbtest.SameItem(getStored(ctx, m.table, key)), "the last write leaves the order as stored")

		// The images being true, so are the partitions the ledger charged.
		got := spent{}
		for _, h := range (capacity.Model{Schema: shop.Schema, TopN: 1000}).Analyze(l).Hot {
			got.add(spent{{h.Target, h.Key}: {h.RCU, h.WCU}})
		}
		Expect(got).To(Equal(want))
	})
})
