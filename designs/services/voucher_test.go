package services_test

import (
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("AP-09 issue a voucher", Label("AP-09", "main-table"), func() {
	var (
		s       services.Service
		program string
	)
	BeforeEach(func(ctx SpecContext) {
		s, program = record(ctx, "", fake.Date())[0], fake.Program()
	})

	It("attaches the voucher and puts the service in AwaitingVoucher", func(ctx SpecContext) {
		v := fake.Voucher(program)
		want := s
		want.Voucher = &v
		Expect(table.IssueVoucher(ctx, s.Key(), v)).To(Equal(want))
		Expect(quiet.GetService(ctx, s.Key())).To(Equal(want))
		Expect(storedItem(ctx, s.Key())).To(HaveKey("AVPK"))
		Eventually(ctx, awaiting(ctx, program)).Should(Equal([]services.Service{want}))
	})

	It("refuses a second voucher, before and after fulfilment, and keeps the first", func(ctx SpecContext) {
		first := fake.Voucher(program)
		_, err := quiet.IssueVoucher(ctx, s.Key(), first)
		Expect(err).NotTo(HaveOccurred())
		_, err = table.IssueVoucher(ctx, s.Key(), fake.Voucher(program))
		Expect(err).To(MatchError(designs.ErrAlreadyExists))

		fulfilled, err := quiet.FulfilVoucher(ctx, s.Key(), fake.Tick())
		Expect(err).NotTo(HaveOccurred())
		_, err = table.IssueVoucher(ctx, s.Key(), fake.Voucher(program))
		Expect(err).To(MatchError(designs.ErrAlreadyExists))
		Expect(quiet.GetService(ctx, s.Key())).To(Equal(fulfilled))
		Expect(fulfilled.Voucher.Code).To(Equal(first.Code))
	})

	It("lets exactly one of 20 concurrent issues win", func(ctx SpecContext) {
		vouchers := make([]services.Voucher, 20)
		for i := range vouchers {
			vouchers[i] = fake.Voucher(program)
		}
		errs := ddbtest.Race(len(vouchers), func(i int) error {
			_, err := table.IssueVoucher(ctx, s.Key(), vouchers[i])
			return err
		})
		winner := ddbtest.OnlyWinner(errs, designs.ErrAlreadyExists)
		want := s
		want.Voucher = &vouchers[winner]
		Expect(partition(ctx, s.ClientID)).To(Equal([]services.Service{want}))
		Eventually(ctx, awaiting(ctx, program)).Should(Equal([]services.Service{want}))
	})

	It("reports ErrNotFound for an unknown service and creates nothing", func(ctx SpecContext) {
		k := fake.Service(fake.ClientID()).Key()
		_, err := table.IssueVoucher(ctx, k, fake.Voucher(program))
		Expect(err).To(MatchError(designs.ErrNotFound))
		Expect(storedItem(ctx, k)).To(BeNil())
	})

	DescribeTable("refuses an incomplete voucher before writing",
		func(ctx SpecContext, spoil func(*services.Voucher)) {
			v := fake.Voucher(program)
			spoil(&v)
			_, err := table.IssueVoucher(ctx, s.Key(), v)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
			Expect(quiet.GetService(ctx, s.Key())).To(Equal(s))
		},
		Entry("without a code", func(v *services.Voucher) { v.Code = "" }),
		Entry("without a program", func(v *services.Voucher) { v.Program = "" }),
		Entry("without an issue time", func(v *services.Voucher) { v.IssuedAt = time.Time{} }),
		Entry("with a negative amount", func(v *services.Voucher) { v.AmountCents = -500 }),
		Entry("already fulfilled", func(v *services.Voucher) { at := v.IssuedAt; v.FulfilledAt = &at }),
	)
})

var _ = Describe("AP-10 fulfil a voucher", Label("AP-10", "main-table"), func() {
	var (
		s, other services.Service // both awaiting vouchers of program
		program  string
	)
	BeforeEach(func(ctx SpecContext) {
		program = fake.Program()
		for _, x := range []*services.Service{&s, &other} {
			*x = record(ctx, "", fake.Date())[0]
			var err error
			*x, err = table.IssueVoucher(ctx, x.Key(), fake.Voucher(program))
			Expect(err).NotTo(HaveOccurred())
		}
	})

	It("stamps the voucher and takes only that service out of AwaitingVoucher", func(ctx SpecContext) {
		at := fake.Tick()
		want := s
		v := *s.Voucher
		v.FulfilledAt = &at
		want.Voucher = &v
		Expect(table.FulfilVoucher(ctx, s.Key(), at)).To(Equal(want))
		Expect(quiet.GetService(ctx, s.Key())).To(Equal(want))
		Expect(storedItem(ctx, s.Key())).NotTo(Or(HaveKey("AVPK"), HaveKey("AVSK")))
		Eventually(ctx, awaiting(ctx, program)).Should(Equal([]services.Service{other}))
	})

	It("lets exactly one of 20 concurrent fulfilments win", func(ctx SpecContext) {
		times := make([]time.Time, 20)
		for i := range times {
			times[i] = fake.Tick()
		}
		errs := ddbtest.Race(len(times), func(i int) error {
			_, err := table.FulfilVoucher(ctx, s.Key(), times[i])
			return err
		})
		winner := ddbtest.OnlyWinner(errs, designs.ErrNotFound)
		got, err := quiet.GetService(ctx, s.Key())
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Voucher.FulfilledAt).To(Equal(&times[winner]))
	})

	DescribeTable("reports ErrNotFound unless the voucher awaits fulfilment, and writes nothing",
		func(ctx SpecContext, key func(SpecContext) services.ServiceKey) {
			k := key(ctx)
			before := storedItem(ctx, k)
			_, err := table.FulfilVoucher(ctx, k, fake.Tick())
			Expect(err).To(MatchError(designs.ErrNotFound))
			Expect(storedItem(ctx, k)).To(Equal(before))
		},
		Entry("a voucher already fulfilled", func(ctx SpecContext) services.ServiceKey {
			_, err := quiet.FulfilVoucher(ctx, s.Key(), fake.Tick())
			Expect(err).NotTo(HaveOccurred())
			return s.Key()
		}),
		Entry("a service without a voucher", func(ctx SpecContext) services.ServiceKey {
			return record(ctx, "", fake.Date())[0].Key()
		}),
		Entry("an unknown service", func(SpecContext) services.ServiceKey {
			return fake.Service(fake.ClientID()).Key()
		}),
	)
})

var _ = Describe("AP-11 list services awaiting voucher fulfilment", Label("AP-11", services.AwaitingVoucher), func() {
	var (
		program string
		want    []services.Service // awaiting, oldest issue first
	)
	BeforeEach(func(ctx SpecContext) {
		program = fake.Program()
		issued := make([]services.Service, 6)
		for i := range issued { // issue order is not service date order
			var err error
			s := record(ctx, "", fake.Date())[0]
			issued[i], err = table.IssueVoucher(ctx, s.Key(), fake.Voucher(program))
			Expect(err).NotTo(HaveOccurred())
		}
		_, err := table.FulfilVoucher(ctx, issued[2].Key(), fake.Tick())
		Expect(err).NotTo(HaveOccurred())
		want = slices.Delete(issued, 2, 3)
		slices.SortFunc(want, func(a, b services.Service) int { return a.Voucher.IssuedAt.Compare(b.Voucher.IssuedAt) })

		record(ctx, "", fake.Date())                                                                          // no voucher: not in the index
		_, err = table.IssueVoucher(ctx, record(ctx, "", fake.Date())[0].Key(), fake.Voucher(fake.Program())) // another program
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("lists exactly the program's awaiting services, oldest issue first, page by page",
		func(ctx SpecContext, n int) {
			Eventually(ctx, func(g Gomega) []services.Service {
				return readAll(g, n, func(c designs.Cursor) (services.Page, error) {
					return table.ListAwaitingVouchers(ctx, program, n, c)
				})
			}).Should(Equal(want))
		},
		Entry("one per page", 1),
		Entry("two per page", 2),
		Entry("all on one page", 5),
		Entry("more per page than there are", 20),
	)

	It("is empty for a program with no voucher awaiting", func(ctx SpecContext) {
		page, err := table.ListAwaitingVouchers(ctx, fake.Program(), 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Services).To(BeEmpty())
		Expect(page.Next).To(BeEmpty())
	})

	It("refuses a cursor from another program", func(ctx SpecContext) {
		var page services.Page
		Eventually(ctx, func(g Gomega) designs.Cursor {
			var err error
			page, err = table.ListAwaitingVouchers(ctx, program, 1, "")
			g.Expect(err).NotTo(HaveOccurred())
			return page.Next
		}).ShouldNot(BeEmpty())
		_, err := table.ListAwaitingVouchers(ctx, fake.Program(), 1, page.Next)
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})
