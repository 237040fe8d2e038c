package shop_test

import (
	"context"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
)

// createBrands stores n new brands, oldest first, each name
// starting with prefix.
func createBrands(ctx context.Context, n int, prefix string) []shop.Brand {
	brands := make([]shop.Brand, n)
	for i := range brands {
		brands[i] = fake.Brand()
		brands[i].Name = prefix + brands[i].Name
		Expect(table.CreateBrand(ctx, brands[i])).To(Succeed())
	}
	return brands
}

var _ = Describe("AP-09 get a brand by id", Label("AP-09", "main-table"), func() {
	var brand shop.Brand
	BeforeEach(func(ctx SpecContext) { brand = createBrands(ctx, 1, "")[0] })

	It("returns the stored brand", func(ctx SpecContext) {
		Expect(table.GetBrand(ctx, brand.ID)).To(Equal(brand))
	})
	It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
		_, err := table.GetBrand(ctx, fake.Brand().ID)
		Expect(err).To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("AP-10 list brands", Label("AP-10", "main-table"), func() {
	var brands []shop.Brand
	BeforeEach(func(ctx SpecContext) { brands = createBrands(ctx, 4, "") })

	DescribeTable("pages through every brand, oldest first, this spec's brands last",
		func(ctx SpecContext, size int) {
			all := pageAll(ctx, Default, size, table.ListBrands)
			ids := make([]string, len(all))
			for i, b := range all {
				ids[i] = b.ID
			}
			ascending(ids)
			Expect(tail(all, len(brands))).To(Equal(brands))
		},
		Entry("one brand a page", 1),
		Entry("three brands a page", 3),
		Entry("the largest page", shop.MaxPageSize),
	)
})

var _ = Describe("AP-11 list brands filter by name-prefix", Label("AP-11", shop.LSI1), func() {
	var prefix string
	var matching []shop.Brand
	BeforeEach(func(ctx SpecContext) {
		prefix = fake.Token(10)
		matching = createBrands(ctx, 4, prefix+" ")
		createBrands(ctx, 1, "x"+prefix) // holds the prefix, but not at the start
		slices.SortFunc(matching, func(a, b shop.Brand) int { return strings.Compare(a.Name, b.Name) })
	})

	It("lists exactly the brands whose name starts with the prefix, in name order", func(ctx SpecContext) {
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Brand], error) {
			return table.ListBrandsByNamePrefix(ctx, prefix, size, after)
		}, matching, 2, 4)
	})
	It("matches names case-sensitively", func(ctx SpecContext) {
		page, err := table.ListBrandsByNamePrefix(ctx, strings.ToUpper(prefix), 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Items).To(BeEmpty())
		Expect(page.Next).To(BeEmpty())
	})
	It("refuses an empty prefix", func(ctx SpecContext) {
		_, err := table.ListBrandsByNamePrefix(ctx, "", 5, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-23 create brand", Label("AP-23", "main-table"), func() {
	It("stores the brand on the table and LSI1", func(ctx SpecContext) {
		brand := createBrands(ctx, 1, fake.Token(10)+" ")[0]
		Expect(table.GetBrand(ctx, brand.ID)).To(Equal(brand))
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Brand], error) {
			return table.ListBrandsByNamePrefix(ctx, brand.Name, size, after)
		}, []shop.Brand{brand}, 1)
	})
	It("allows two brands of one name", func(ctx SpecContext) {
		twins := []shop.Brand{fake.Brand(), fake.Brand()}
		name := fake.Token(10)
		for i := range twins {
			twins[i].Name = name
			Expect(table.CreateBrand(ctx, twins[i])).To(Succeed())
		}
		Eventually(ctx, func(g Gomega) {
			g.Expect(pageAll(ctx, g, 5, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Brand], error) {
				return table.ListBrandsByNamePrefix(ctx, name, size, after)
			})).To(ConsistOf(twins))
		}).Should(Succeed())
	})
	It("refuses a taken ID and keeps the first brand", func(ctx SpecContext) {
		brand := createBrands(ctx, 1, "")[0]
		other := brand
		other.Name = "Other " + brand.Name
		Expect(table.CreateBrand(ctx, other)).To(MatchError(designs.ErrAlreadyExists))
		Expect(table.GetBrand(ctx, brand.ID)).To(Equal(brand))
	})
	DescribeTable("refuses an invalid brand before writing",
		func(ctx SpecContext, spoil func(*shop.Brand)) {
			b := fake.Brand()
			spoil(&b)
			Expect(table.CreateBrand(ctx, b)).To(MatchError(designs.ErrInvalidInput))
			Expect(stored(ctx, shop.BrandsPK, shop.BrandSK(b.ID))).To(BeFalse())
		},
		Entry("without a name", func(b *shop.Brand) { b.Name = "" }),
		Entry("with a name too long for a sort key", func(b *shop.Brand) { b.Name = strings.Repeat("n", 257) }),
		Entry("with an ID that is no KSUID", func(b *shop.Brand) { b.ID = "brand-1" }),
		Entry("with an ID of another second than CreatedAt", func(b *shop.Brand) { b.CreatedAt = b.CreatedAt.Add(time.Second) }),
	)
})
