package services_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("AP-01 record a service", Label("AP-01", "main-table"), func() {
	It("stores the service in the client's history and its year's report", func(ctx SpecContext) {
		day := date(fake.ReportYear(), 5, 20) // a day no other spec reports on
		s := fake.ServiceOn(fake.ClientID(), day)
		Expect(table.RecordService(ctx, s)).To(Succeed())

		Expect(quiet.GetService(ctx, s.Key())).To(Equal(s))
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{s}))
		item := storedItem(ctx, s.Key())
		Expect(item).To(HaveKey("YPK"))
		Expect(item).NotTo(HaveKey("AVPK"), "no voucher: not in the sparse index")
		Eventually(ctx, func(g Gomega) []services.Service {
			return readAll(g, 10, func(c designs.Cursor) (services.Page, error) {
				return quiet.ReportPeriod(ctx, services.Period(day), 10, c)
			})
		}).Should(Equal([]services.Service{s}))
	})

	It("refuses a second record of the same key and keeps the first", func(ctx SpecContext) {
		s := fake.Service(fake.ClientID())
		Expect(quiet.RecordService(ctx, s)).To(Succeed())
		again := s
		again.Details = fake.Details()
		Expect(table.RecordService(ctx, again)).To(MatchError(designs.ErrAlreadyExists))
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{s}))
	})

	It("lets exactly one of 20 concurrent records of one key win", func(ctx SpecContext) {
		first := fake.Service(fake.ClientID())
		tries := make([]services.Service, 20)
		for i := range tries {
			tries[i] = first
			tries[i].Details = fake.Details()
		}
		errs := ddbtest.Race(len(tries), func(i int) error { return table.RecordService(ctx, tries[i]) })
		winner := ddbtest.OnlyWinner(errs, designs.ErrAlreadyExists)
		Expect(partition(ctx, first.ClientID)).To(Equal([]services.Service{tries[winner]}))
	})

	DescribeTable("refuses an invalid service before writing",
		func(ctx SpecContext, spoil func(*services.Service)) {
			s := fake.Service(fake.ClientID())
			spoil(&s)
			Expect(table.RecordService(ctx, s)).To(MatchError(designs.ErrInvalidInput))
			Expect(partition(ctx, s.ClientID)).To(BeEmpty())
		},
		Entry("without a service ID", func(s *services.Service) { s.ID = "" }),
		Entry("with a date that is not zero-padded", func(s *services.Service) { s.Date = "2026-3-4" }),
		Entry("with a day the calendar lacks", func(s *services.Service) { s.Date = "2026-02-30" }),
		Entry("with a date and a time", func(s *services.Service) { s.Date = "2026-03-04T10:00:00Z" }),
		Entry("without a kind", func(s *services.Service) { s.Kind = "" }),
		Entry("with negative units", func(s *services.Service) { s.Units = -1 }),
		Entry("with a voucher already attached", func(s *services.Service) {
			v := fake.Voucher(fake.Program())
			s.Voucher = &v
		}),
	)
})

var _ = Describe("AP-02 get a service", Label("AP-02", "main-table"), func() {
	var s services.Service
	BeforeEach(func(ctx SpecContext) {
		s = record(ctx, "", fake.Date())[0]
	})

	It("returns the stored service", func(ctx SpecContext) {
		got, err := table.GetService(ctx, s.Key())
		if env.Faulted(err) {
			return // a read stores nothing: the fault handed back is its whole answer
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(s))
	})

	DescribeTable("reports ErrNotFound for a key that matches no service",
		func(ctx SpecContext, change func(*services.ServiceKey)) {
			k := s.Key()
			change(&k)
			_, err := table.GetService(ctx, k)
			if !env.Faulted(err) {
				Expect(err).To(MatchError(designs.ErrNotFound))
			}
		},
		Entry("another service ID", func(k *services.ServiceKey) { k.ID = fake.ID() }),
		Entry("the right ID on another date", func(k *services.ServiceKey) { k.Date = "2025-01-01" }),
		Entry("another client", func(k *services.ServiceKey) { k.ClientID = fake.ClientID() }),
	)

	It("refuses a malformed key before reading", func(ctx SpecContext) {
		k := s.Key()
		k.Date = "14/03/2026"
		_, err := table.GetService(ctx, k)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
