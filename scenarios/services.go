package scenarios

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// ServicesDailyIntake: caseworkers record and edit services, open client
// histories, issue and fulfil vouchers; managers run reports. Every service
// of the year lands in the year's ByYear partition.
var ServicesDailyIntake = workload.Scenario{
	Name:     "services/daily-intake",
	About:    "caseworkers record services and vouchers, open histories; managers run reports on the current year",
	Design:   services.Design,
	Pool:     2000,
	Pacer:    vegeta.ConstantPacer{Freq: 250, Per: time.Second},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: services.RecordServiceID, Weight: 20, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.ListHistoryID, Weight: 20, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.GetServiceID, Weight: 15, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.UpdateServiceID, Weight: 6, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.RescheduleServiceID, Weight: 3, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.DeleteServiceID, Weight: 2},
		{Pattern: services.ReportPeriodID, Weight: 8},
		{Pattern: services.ReportRangeID, Weight: 4},
		{Pattern: services.IssueVoucherID, Weight: 8, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.FulfilVoucherID, Weight: 6, Keys: workload.Zipf{S: 1.1}},
		{Pattern: services.ListAwaitingVouchersID, Weight: 8},
	},
	Driver: newServicesDriver,
}

// ServicesYearEndBurst: the design's own risk. A burst of recordings (the
// rate swells and ebbs over the run) while reports run: every service of
// the year writes to the one ByYear partition of its year, which bounds the
// whole table's write rate.
var ServicesYearEndBurst = workload.Scenario{
	Name:     "services/year-end-burst",
	About:    "a burst of recordings while reports run: every write lands on the current year's ByYear partition",
	Design:   services.Design,
	Pool:     2000,
	Pacer:    vegeta.SinePacer{Period: 20 * time.Second, Mean: vegeta.Rate{Freq: 300, Per: time.Second}, Amp: vegeta.Rate{Freq: 250, Per: time.Second}, StartAt: vegeta.Trough},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: services.RecordServiceID, Weight: 55},
		{Pattern: services.IssueVoucherID, Weight: 10},
		{Pattern: services.UpdateServiceID, Weight: 5},
		{Pattern: services.ReportPeriodID, Weight: 15},
		{Pattern: services.ReportRangeID, Weight: 10},
		{Pattern: services.ListAwaitingVouchersID, Weight: 5},
	},
	Driver: newServicesDriver,
}

// servicesDriver calls the services patterns: key k is the k-th seeded
// client. It keeps each client's services as the run changes them: the
// ones without a voucher, awaiting one, or fulfilled.
type servicesDriver struct {
	t       services.Table
	seed    int64
	pool    fixtures.SeededServices
	clients []guarded[serviceBook]
}

// serviceBook is what the driver knows of one client's services.
type serviceBook struct {
	plain, awaiting, done []services.ServiceKey
}

func newServicesDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &servicesDriver{t: services.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes n clients' services, some with vouchers.
func (d *servicesDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewServices(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, services.Schema), n, progress)
	if err != nil {
		return err
	}
	d.pool, d.clients = pool, make([]guarded[serviceBook], n)
	for i, ss := range pool.Services {
		b := &d.clients[i].v
		for _, s := range ss {
			switch {
			case s.Voucher == nil:
				b.plain = append(b.plain, s.Key())
			case s.Voucher.FulfilledAt == nil:
				b.awaiting = append(b.awaiting, s.Key())
			default:
				b.done = append(b.done, s.Key())
			}
		}
	}
	return nil
}

// servicesPageSize is the page a screen or a report asks for.
const servicesPageSize = 50

// Call runs p around the key-th client; reports cover the seeded year.
// Services a concurrent call moved or deleted meet designs.ErrNotFound or
// designs.ErrConflict: outcomes, not driver faults.
func (d *servicesDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	if len(d.clients) == 0 {
		return ErrNotSeeded
	}
	key %= len(d.clients)
	client, book := d.pool.Clients[key], &d.clients[key]
	f := fixtures.Live[fixtures.Services](r, time.Now())
	program := d.pool.Programs[r.IntN(len(d.pool.Programs))]
	var err error
	switch p {
	case services.RecordServiceID:
		s := f.Service(client)
		if err = d.t.RecordService(ctx, s); err == nil {
			book.do(func(b *serviceBook) { b.plain = append(b.plain, s.Key()) })
		}
	case services.GetServiceID:
		_, err = d.t.GetService(ctx, d.any(key, r))
	case services.ListHistoryID:
		_, err = d.t.ListHistory(ctx, client, servicesPageSize, "")
	case services.UpdateServiceID:
		_, err = d.t.UpdateService(ctx, d.any(key, r), f.Details())
	case services.RescheduleServiceID:
		k := d.any(key, r)
		var moved services.Service
		if moved, err = d.t.RescheduleService(ctx, k, f.Date()); err == nil {
			book.do(func(b *serviceBook) { b.replace(k, moved.Key()) })
		}
	case services.DeleteServiceID:
		_, k := d.take(key, plain)
		err = d.t.DeleteService(ctx, k)
	case services.ReportPeriodID:
		_, err = d.t.ReportPeriod(ctx, d.period(r), servicesPageSize, "")
	case services.ReportRangeID:
		from := time.Date(d.pool.Year, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(358))
		_, err = d.t.ReportRange(ctx, from.Format(services.DateLayout), from.AddDate(0, 0, 6).Format(services.DateLayout), servicesPageSize, "")
	case services.IssueVoucherID:
		c, k := d.take(key, plain)
		if _, err = d.t.IssueVoucher(ctx, k, f.Voucher(program)); err == nil {
			d.clients[c].do(func(b *serviceBook) { b.awaiting = append(b.awaiting, k) })
		}
	case services.FulfilVoucherID:
		c, k := d.take(key, awaiting)
		if _, err = d.t.FulfilVoucher(ctx, k, time.Now()); err == nil {
			d.clients[c].do(func(b *serviceBook) { b.done = append(b.done, k) })
		}
	case services.ListAwaitingVouchersID:
		_, err = d.t.ListAwaitingVouchers(ctx, program, servicesPageSize, "")
	default:
		err = unknown(services.Design.Name, p)
	}
	return err
}

// any returns one of the client's services, whatever its voucher.
func (d *servicesDriver) any(key int, r *rand.Rand) services.ServiceKey {
	k := d.missing(key)
	d.clients[key].do(func(b *serviceBook) {
		n := len(b.plain) + len(b.awaiting) + len(b.done)
		if n == 0 {
			return
		}
		i := r.IntN(n)
		for _, l := range [][]services.ServiceKey{b.plain, b.awaiting, b.done} {
			if i < len(l) {
				k = l[i]
				return
			}
			i -= len(l)
		}
	})
	return k
}

// take removes the newest service of one of the lists of the key-th
// client, or of the next client that has one, for a call that changes its
// state; it returns that client and the service, or a key no service has.
func (d *servicesDriver) take(key int, list func(*serviceBook) *[]services.ServiceKey) (int, services.ServiceKey) {
	c, _ := scan(key, len(d.clients), func(i int) bool {
		n := 0
		d.clients[i].do(func(b *serviceBook) { n = len(*list(b)) })
		return n > 0
	})
	k := d.missing(c)
	d.clients[c].do(func(b *serviceBook) {
		if l := list(b); len(*l) > 0 {
			k, *l = (*l)[len(*l)-1], (*l)[:len(*l)-1]
		}
	})
	return c, k
}

// missing is a key of the client that no service has.
func (d *servicesDriver) missing(key int) services.ServiceKey {
	return services.ServiceKey{ClientID: d.pool.Clients[key], Date: fmt.Sprintf("%04d-01-01", d.pool.Year), ID: noID}
}

// period is a report period of the seeded year: a month most often, then
// a day, now and then the whole year.
func (d *servicesDriver) period(r *rand.Rand) services.Period {
	month := time.Month(1 + r.IntN(12))
	switch x := r.IntN(10); {
	case x < 6:
		return services.Month(d.pool.Year, month)
	case x < 9:
		return services.Day(d.pool.Year, month, 1+r.IntN(28))
	}
	return services.Year(d.pool.Year)
}

// The lists take chooses from.
func plain(b *serviceBook) *[]services.ServiceKey    { return &b.plain }
func awaiting(b *serviceBook) *[]services.ServiceKey { return &b.awaiting }

// replace swaps old for moved wherever the book holds it.
func (b *serviceBook) replace(old, moved services.ServiceKey) {
	for _, l := range []*[]services.ServiceKey{&b.plain, &b.awaiting, &b.done} {
		if i := slices.Index(*l, old); i >= 0 {
			(*l)[i] = moved
		}
	}
}
