package services_test

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("AP-04 update a service", Label("AP-04", "main-table"), func() {
	var (
		s   services.Service
		day services.Period
	)
	BeforeEach(func(ctx SpecContext) {
		day = services.Day(fake.ReportYear(), 6, 1)
		s = record(ctx, "", string(day))[0]
	})

	It("changes the details in place, in the history and in the report", func(ctx SpecContext) {
		want := s
		want.Details = fake.Details()
		Expect(table.UpdateService(ctx, s.Key(), want.Details)).To(Equal(want))
		Expect(quiet.GetService(ctx, s.Key())).To(Equal(want))
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{want}))
		Eventually(ctx, report(ctx, day)).Should(Equal([]services.Service{want}))
	})

	It("keeps an awaiting voucher, and the service in AwaitingVoucher", func(ctx SpecContext) {
		program := fake.Program()
		withVoucher, err := quiet.IssueVoucher(ctx, s.Key(), fake.Voucher(program))
		Expect(err).NotTo(HaveOccurred())
		want := withVoucher
		want.Details = fake.Details()
		Expect(table.UpdateService(ctx, s.Key(), want.Details)).To(Equal(want))
		Eventually(ctx, awaiting(ctx, program)).Should(Equal([]services.Service{want}))
	})

	It("reports ErrNotFound for an unknown service and creates nothing", func(ctx SpecContext) {
		k := fake.Service(fake.ClientID()).Key()
		_, err := table.UpdateService(ctx, k, fake.Details())
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(storedItem(ctx, k)).To(BeNil())
	})

	It("refuses details without a kind and leaves the service as it was", func(ctx SpecContext) {
		_, err := table.UpdateService(ctx, s.Key(), services.Details{Units: 2})
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(quiet.GetService(ctx, s.Key())).To(Equal(s))
	})
})

// interleaved is a real client that lets another writer in right after each
// GetItem: the window between a read-modify-write pattern's read and write.
type interleaved struct {
	designs.DB
	between func(context.Context)
}

func (d interleaved) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := d.DB.GetItem(ctx, in, opts...)
	d.between(ctx)
	return out, err
}

var _ = Describe("AP-05 change a service's date", Label("AP-05", "main-table"), func() {
	// A move that handed back a fault (it reads before it writes) moved
	// nothing: the client's partition holds exactly what it held, each
	// service at its old date, none twice.
	unmoved := func(ctx context.Context, clientID string, was ...services.Service) {
		GinkgoHelper()
		Expect(partition(ctx, clientID)).To(Equal(was))
	}

	It("moves the service in the client's history", func(ctx SpecContext) {
		clientID := fake.ClientID()
		history := record(ctx, clientID, "2026-02-01", "2026-03-01", "2026-04-01")
		moved := history[0]
		moved.Date = "2026-05-01"

		var got services.Service
		err := env.Again(func() (err error) { got, err = table.RescheduleService(ctx, history[0].Key(), moved.Date); return err },
			func() { unmoved(ctx, clientID, history...) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(moved))
		_, err = quiet.GetService(ctx, history[0].Key())
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(quiet.GetService(ctx, moved.Key())).To(Equal(moved))
		page, err := quiet.ListHistory(ctx, clientID, 10, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Services).To(Equal([]services.Service{moved, history[2], history[1]}))
	})

	It("moves the service from one year's report to another's", func(ctx SpecContext) {
		from, to := services.Day(fake.ReportYear(), 3, 14), services.Day(fake.ReportYear(), 7, 1)
		s := record(ctx, "", string(from))[0]
		Eventually(ctx, report(ctx, from)).Should(Equal([]services.Service{s}))

		var moved services.Service
		err := env.Again(func() (err error) { moved, err = table.RescheduleService(ctx, s.Key(), string(to)); return err },
			func() { unmoved(ctx, s.ClientID, s) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Eventually(ctx, report(ctx, to)).Should(Equal([]services.Service{moved}))
		Eventually(ctx, report(ctx, from[:4])).Should(BeEmpty())
	})

	It("keeps an awaiting voucher, so the service stays in AwaitingVoucher at its new date", func(ctx SpecContext) {
		program := fake.Program()
		s := record(ctx, "", fake.Date())[0]
		_, err := quiet.IssueVoucher(ctx, s.Key(), fake.Voucher(program))
		Expect(err).NotTo(HaveOccurred())
		withVoucher, err := quiet.GetService(ctx, s.Key())
		Expect(err).NotTo(HaveOccurred())

		var moved services.Service
		err = env.Again(func() (err error) { moved, err = table.RescheduleService(ctx, s.Key(), "2026-12-31"); return err },
			func() { unmoved(ctx, s.ClientID, withVoucher) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		want := withVoucher
		want.Date = "2026-12-31"
		Expect(moved).To(Equal(want))
		Expect(storedItem(ctx, moved.Key())).To(HaveKey("AVPK"))
		Eventually(ctx, awaiting(ctx, program)).Should(Equal([]services.Service{want}))
	})

	It("writes nothing when the date is the same", func(ctx SpecContext) {
		s := record(ctx, "", fake.Date())[0]
		got, err := table.RescheduleService(ctx, s.Key(), s.Date)
		if !env.Faulted(err) {
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(s))
		}
		Expect(version(ctx, s.Key())).To(Equal(1))
	})

	It("reports ErrNotFound for an unknown service and writes nothing", func(ctx SpecContext) {
		s := fake.Service(fake.ClientID())
		_, err := table.RescheduleService(ctx, s.Key(), "2026-12-31")
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrNotFound))
		}
		Expect(partition(ctx, s.ClientID)).To(BeEmpty())
	})

	It("reports ErrConflict when the service changes between its read and its move, and moves nothing", func(ctx SpecContext) {
		s := record(ctx, "", "2026-01-10")[0]
		v := fake.Voucher(fake.Program())
		racing := services.Table{Name: env.Table, DB: interleaved{DB: env.DB, between: func(ctx context.Context) {
			_, err := quiet.IssueVoucher(ctx, s.Key(), v)
			Expect(err).NotTo(HaveOccurred())
		}}}
		_, err := racing.RescheduleService(ctx, s.Key(), "2026-01-20")
		Expect(err).To(MatchError(designs.ErrConflict))

		want := s
		want.Voucher = &v
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{want}), "the service stays, with the concurrent voucher")
	})

	It("lets exactly one of 20 concurrent moves of one service win", func(ctx SpecContext) {
		s := record(ctx, "", "2026-01-01")[0]
		dates := make([]string, 20)
		for i := range dates {
			dates[i] = date(2026, 2, i+1)
		}
		errs := ddbtest.Race(len(dates), func(i int) error {
			_, err := table.RescheduleService(ctx, s.Key(), dates[i])
			return err
		})
		winner := env.OnlyWinner(errs, designs.ErrNotFound) // the service left the key they read
		want := s
		want.Date = dates[winner]
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{want}))
	})

	It("refuses a date that is not YYYY-MM-DD", func(ctx SpecContext) {
		s := record(ctx, "", fake.Date())[0]
		_, err := table.RescheduleService(ctx, s.Key(), "2026-13-01")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{s}))
	})
})

var _ = Describe("AP-06 delete a service", Label("AP-06", "main-table"), func() {
	var (
		day        services.Period
		program    string
		kept, gone services.Service
	)
	BeforeEach(func(ctx SpecContext) {
		day, program = services.Day(fake.ReportYear(), 9, 9), fake.Program()
		kept = record(ctx, fake.ClientID(), string(day))[0]
		gone = fake.ServiceOn(kept.ClientID, string(day))
		Expect(table.RecordService(ctx, gone)).To(Succeed())
		_, err := table.IssueVoucher(ctx, gone.Key(), fake.Voucher(program))
		Expect(err).NotTo(HaveOccurred())
		Eventually(ctx, awaiting(ctx, program)).Should(HaveLen(1))
	})

	It("removes the service from the history, the report and AwaitingVoucher", func(ctx SpecContext) {
		Expect(table.DeleteService(ctx, gone.Key())).To(Succeed())
		_, err := quiet.GetService(ctx, gone.Key())
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(partition(ctx, kept.ClientID)).To(Equal([]services.Service{kept}))
		Eventually(ctx, report(ctx, day)).Should(Equal([]services.Service{kept}))
		Eventually(ctx, awaiting(ctx, program)).Should(BeEmpty())
	})

	It("reports ErrNotFound for a service already deleted", func(ctx SpecContext) {
		Expect(quiet.DeleteService(ctx, gone.Key())).To(Succeed())
		Expect(table.DeleteService(ctx, gone.Key())).To(MatchError(designs.ErrNotFound))
		Expect(partition(ctx, kept.ClientID)).To(Equal([]services.Service{kept}))
	})

	It("refuses a malformed key before writing", func(ctx SpecContext) {
		k := gone.Key()
		k.ID = ""
		Expect(table.DeleteService(ctx, k)).To(MatchError(designs.ErrInvalidInput))
		Expect(storedItem(ctx, gone.Key())).NotTo(BeNil())
	})
})
