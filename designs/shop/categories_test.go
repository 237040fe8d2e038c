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

// createCategories stores n new categories, oldest first, each name
// starting with prefix.
func createCategories(ctx context.Context, n int, prefix string) []shop.Category {
	cats := make([]shop.Category, n)
	for i := range cats {
		cats[i] = fake.Category()
		cats[i].Name = prefix + cats[i].Name
		Expect(table.CreateCategory(ctx, cats[i])).To(Succeed())
	}
	return cats
}

var _ = Describe("AP-06 get a category by id", Label("AP-06", "main-table"), func() {
	var cat shop.Category
	BeforeEach(func(ctx SpecContext) { cat = createCategories(ctx, 1, "")[0] })

	It("returns the stored category", func(ctx SpecContext) {
		Expect(table.GetCategory(ctx, cat.ID)).To(Equal(cat))
	})
	It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
		_, err := table.GetCategory(ctx, fake.Category().ID)
		Expect(err).To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("AP-07 list categories", Label("AP-07", "main-table"), func() {
	var cats []shop.Category
	BeforeEach(func(ctx SpecContext) { cats = createCategories(ctx, 4, "") })

	DescribeTable("pages through every category, oldest first, this spec's categories last",
		func(ctx SpecContext, size int) {
			all := pageAll(ctx, Default, size, table.ListCategories)
			ids := make([]string, len(all))
			for i, c := range all {
				ids[i] = c.ID
			}
			ascending(ids)
			Expect(tail(all, len(cats))).To(Equal(cats))
		},
		Entry("one category a page", 1),
		Entry("three categories a page", 3),
		Entry("the largest page", shop.MaxPageSize),
	)
})

var _ = Describe("AP-08 list categories filter by name-prefix", Label("AP-08", shop.LSI1), func() {
	var prefix string
	var matching []shop.Category
	BeforeEach(func(ctx SpecContext) {
		prefix = fake.Token(10)
		matching = createCategories(ctx, 4, prefix+" ")
		createCategories(ctx, 1, "x"+prefix) // holds the prefix, but not at the start
		slices.SortFunc(matching, func(a, b shop.Category) int { return strings.Compare(a.Name, b.Name) })
	})

	It("lists exactly the categories whose name starts with the prefix, in name order", func(ctx SpecContext) {
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Category], error) {
			return table.ListCategoriesByNamePrefix(ctx, prefix, size, after)
		}, matching, 2, 4)
	})
	It("matches names case-sensitively", func(ctx SpecContext) {
		page, err := table.ListCategoriesByNamePrefix(ctx, strings.ToUpper(prefix), 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Items).To(BeEmpty())
		Expect(page.Next).To(BeEmpty())
	})
	It("refuses an empty prefix", func(ctx SpecContext) {
		_, err := table.ListCategoriesByNamePrefix(ctx, "", 5, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-22 create category", Label("AP-22", "main-table"), func() {
	It("stores the category on the table and LSI1", func(ctx SpecContext) {
		cat := createCategories(ctx, 1, fake.Token(10)+" ")[0]
		Expect(table.GetCategory(ctx, cat.ID)).To(Equal(cat))
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Category], error) {
			return table.ListCategoriesByNamePrefix(ctx, cat.Name, size, after)
		}, []shop.Category{cat}, 1)
	})
	It("allows two categories of one name", func(ctx SpecContext) {
		twins := []shop.Category{fake.Category(), fake.Category()}
		name := fake.Token(10)
		for i := range twins {
			twins[i].Name = name
			Expect(table.CreateCategory(ctx, twins[i])).To(Succeed())
		}
		Eventually(ctx, func(g Gomega) {
			g.Expect(pageAll(ctx, g, 5, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Category], error) {
				return table.ListCategoriesByNamePrefix(ctx, name, size, after)
			})).To(ConsistOf(twins))
		}).Should(Succeed())
	})
	It("refuses a taken ID and keeps the first category", func(ctx SpecContext) {
		cat := createCategories(ctx, 1, "")[0]
		other := cat
		other.Name = "Other " + cat.Name
		Expect(table.CreateCategory(ctx, other)).To(MatchError(designs.ErrAlreadyExists))
		Expect(table.GetCategory(ctx, cat.ID)).To(Equal(cat))
	})
	DescribeTable("refuses an invalid category before writing",
		func(ctx SpecContext, spoil func(*shop.Category)) {
			c := fake.Category()
			spoil(&c)
			Expect(table.CreateCategory(ctx, c)).To(MatchError(designs.ErrInvalidInput))
			Expect(stored(ctx, shop.CategoriesPK, shop.CategorySK(c.ID))).To(BeFalse())
		},
		Entry("without a name", func(c *shop.Category) { c.Name = "" }),
		Entry("with a name too long for a sort key", func(c *shop.Category) { c.Name = strings.Repeat("n", 257) }),
		Entry("with an ID that is no KSUID", func(c *shop.Category) { c.ID = "cat-1" }),
		Entry("with an ID of another second than CreatedAt", func(c *shop.Category) { c.CreatedAt = c.CreatedAt.Add(time.Second) }),
	)
})
