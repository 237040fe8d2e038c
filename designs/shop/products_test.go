package shop_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
)

// createProduct stores a new product of the brand in the category, through
// quiet: a spec's setup, never the call it proves.
func createProduct(ctx context.Context, brand shop.Brand, cat shop.Category) shop.Product {
	p := fake.Product(brand.ID, cat.ID)
	Expect(quiet.CreateProduct(ctx, p)).To(Succeed())
	return p
}

// grid is two brands and two categories, each pair older then newer, and
// seven products spread over them in creation order p[1]..p[7] (p[0] is
// unused so indexes read as in the expectations).
type grid struct {
	oldBrand, newBrand shop.Brand
	oldCat, newCat     shop.Category
	p                  [8]shop.Product
}

func newGrid(ctx context.Context) *grid {
	g := &grid{oldBrand: createBrands(ctx, 1, "")[0], newBrand: createBrands(ctx, 1, "")[0]}
	g.oldCat, g.newCat = createCategories(ctx, 1, "")[0], createCategories(ctx, 1, "")[0]
	g.p[1] = createProduct(ctx, g.newBrand, g.newCat)
	g.p[2] = createProduct(ctx, g.oldBrand, g.oldCat)
	g.p[3] = createProduct(ctx, g.oldBrand, g.newCat)
	g.p[4] = createProduct(ctx, g.newBrand, g.oldCat)
	g.p[5] = createProduct(ctx, g.oldBrand, g.oldCat)
	g.p[6] = createProduct(ctx, g.newBrand, g.newCat)
	g.p[7] = createProduct(ctx, g.oldBrand, g.newCat)
	return g
}

func (g *grid) pick(n ...int) []shop.Product {
	out := make([]shop.Product, len(n))
	for i, k := range n {
		out[i] = g.p[k]
	}
	return out
}

var _ = Describe("AP-12 get a product by id", Label("AP-12", "main-table"), func() {
	var product shop.Product
	BeforeEach(func(ctx SpecContext) {
		product = createProduct(ctx, createBrands(ctx, 1, "")[0], createCategories(ctx, 1, "")[0])
	})

	It("returns the stored product", func(ctx SpecContext) {
		env.Answers(table.GetProduct(ctx, product.ID))(product)
	})
	It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
		_, err := table.GetProduct(ctx, fake.Product(product.BrandID, product.CategoryID).ID)
		env.Refuses(err, designs.ErrNotFound)
	})
})

var _ = Describe("AP-13 list products", Label("AP-13", "main-table"), func() {
	var g *grid
	BeforeEach(func(ctx SpecContext) { g = newGrid(ctx) })

	DescribeTable("pages through every product, oldest first, this spec's products last",
		func(ctx SpecContext, size int) {
			all := pageAll(ctx, Default, size, table.ListProducts)
			ids := make([]string, len(all))
			for i, p := range all {
				ids[i] = p.ID
			}
			ascending(ids)
			Expect(tail(all, 7)).To(Equal(g.pick(1, 2, 3, 4, 5, 6, 7)))
		},
		Entry("two products a page", 2),
		Entry("seven products a page", 7),
		Entry("the largest page", shop.MaxPageSize),
	)
})

var _ = Describe("AP-14 list products by brand", Label("AP-14", shop.GSI1), func() {
	var g *grid
	BeforeEach(func(ctx SpecContext) { g = newGrid(ctx) })

	It("lists the brand's products by category, oldest category first, then oldest product first", func(ctx SpecContext) {
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return table.ListProductsByBrand(ctx, g.oldBrand.ID, size, after)
		}, g.pick(2, 5, 3, 7), 1, 3, 4)
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return table.ListProductsByBrand(ctx, g.newBrand.ID, size, after)
		}, g.pick(4, 1, 6), 2)
	})
	It("lists nothing for a brand without products", func(ctx SpecContext) {
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return table.ListProductsByBrand(ctx, createBrands(ctx, 1, "")[0].ID, size, after)
		}, nil, 5)
	})
})

var _ = Describe("AP-15 list products by brand and category", Label("AP-15", shop.GSI1), func() {
	var g *grid
	BeforeEach(func(ctx SpecContext) { g = newGrid(ctx) })

	DescribeTable("lists the brand's products in the category, oldest first",
		func(ctx SpecContext, brand func() shop.Brand, cat func() shop.Category, want []int) {
			indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
				return table.ListProductsByBrandAndCategory(ctx, brand().ID, cat().ID, size, after)
			}, g.pick(want...), 1, 2)
		},
		Entry("older brand, newer category", func() shop.Brand { return g.oldBrand }, func() shop.Category { return g.newCat }, []int{3, 7}),
		Entry("older brand, older category", func() shop.Brand { return g.oldBrand }, func() shop.Category { return g.oldCat }, []int{2, 5}),
		Entry("newer brand, older category", func() shop.Brand { return g.newBrand }, func() shop.Category { return g.oldCat }, []int{4}),
	)
})

var _ = Describe("AP-16 list products by category", Label("AP-16", shop.GSI2), func() {
	var g *grid
	BeforeEach(func(ctx SpecContext) { g = newGrid(ctx) })

	It("lists the category's products by brand, oldest brand first, then oldest product first", func(ctx SpecContext) {
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return table.ListProductsByCategory(ctx, g.newCat.ID, size, after)
		}, g.pick(3, 7, 1, 6), 1, 3, 4)
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return table.ListProductsByCategory(ctx, g.oldCat.ID, size, after)
		}, g.pick(2, 5, 4), 2)
	})
})

var _ = Describe("AP-17 list products by category and brand", Label("AP-17", shop.GSI2), func() {
	var g *grid
	BeforeEach(func(ctx SpecContext) { g = newGrid(ctx) })

	DescribeTable("lists the category's products of the brand, oldest first",
		func(ctx SpecContext, cat func() shop.Category, brand func() shop.Brand, want []int) {
			indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
				return table.ListProductsByCategoryAndBrand(ctx, cat().ID, brand().ID, size, after)
			}, g.pick(want...), 1, 2)
		},
		Entry("newer category, newer brand", func() shop.Category { return g.newCat }, func() shop.Brand { return g.newBrand }, []int{1, 6}),
		Entry("newer category, older brand", func() shop.Category { return g.newCat }, func() shop.Brand { return g.oldBrand }, []int{3, 7}),
		Entry("older category, newer brand", func() shop.Category { return g.oldCat }, func() shop.Brand { return g.newBrand }, []int{4}),
	)
})

var _ = Describe("AP-24 create product", Label("AP-24", "main-table"), func() {
	var brand shop.Brand
	var cat shop.Category
	BeforeEach(func(ctx SpecContext) {
		brand, cat = createBrands(ctx, 1, "")[0], createCategories(ctx, 1, "")[0]
	})

	// unwritten expects no product p on the table: what a create that
	// handed back a fault or a refusal leaves.
	unwritten := func(ctx context.Context, p shop.Product) {
		GinkgoHelper()
		Expect(stored(ctx, shop.ProductsPK, shop.ProductSK(p.ID))).To(BeFalse())
	}

	It("stores the product on the table, GSI1 and GSI2", func(ctx SpecContext) {
		p := fake.Product(brand.ID, cat.ID)
		err := env.Again(func() error { return table.CreateProduct(ctx, p) }, func() { unwritten(ctx, p) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(quiet.GetProduct(ctx, p.ID)).To(Equal(p))
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return quiet.ListProductsByBrandAndCategory(ctx, brand.ID, cat.ID, size, after)
		}, []shop.Product{p}, 1)
		indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.Product], error) {
			return quiet.ListProductsByCategoryAndBrand(ctx, cat.ID, brand.ID, size, after)
		}, []shop.Product{p}, 1)
	})
	DescribeTable("refuses a product whose brand or category is missing, writing nothing",
		func(ctx SpecContext, spoil func(*shop.Product), missing string) {
			p := fake.Product(brand.ID, cat.ID)
			spoil(&p)
			err := env.Again(func() error { return table.CreateProduct(ctx, p) }, func() { unwritten(ctx, p) })
			if !env.Faulted(err) {
				Expect(err).To(MatchError(designs.ErrNotFound))
				Expect(err).To(MatchError(ContainSubstring(missing)))
			}
			unwritten(ctx, p)
		},
		Entry("an unknown brand", func(p *shop.Product) { p.BrandID = fake.Brand().ID }, "brand"),
		Entry("an unknown category", func(p *shop.Product) { p.CategoryID = fake.Category().ID }, "category"),
	)
	It("refuses a taken ID and keeps the first product", func(ctx SpecContext) {
		p := createProduct(ctx, brand, cat)
		other := p
		other.Name, other.Stock = "Other "+p.Name, p.Stock+1
		kept := func() { Expect(quiet.GetProduct(ctx, p.ID)).To(Equal(p)) }
		err := env.Again(func() error { return table.CreateProduct(ctx, other) }, kept)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrAlreadyExists))
		}
		kept()
	})
	DescribeTable("refuses an invalid product before writing",
		func(ctx SpecContext, spoil func(*shop.Product)) {
			p := fake.Product(brand.ID, cat.ID)
			spoil(&p)
			Expect(table.CreateProduct(ctx, p)).To(MatchError(designs.ErrInvalidInput))
			Expect(stored(ctx, shop.ProductsPK, shop.ProductSK(p.ID))).To(BeFalse())
		},
		Entry("without a name", func(p *shop.Product) { p.Name = "" }),
		Entry("with a negative price", func(p *shop.Product) { p.PriceCents = -1 }),
		Entry("with a negative stock", func(p *shop.Product) { p.Stock = -1 }),
		Entry("with a brand ID that is no KSUID", func(p *shop.Product) { p.BrandID = "BRAND#1" }),
		Entry("without a category", func(p *shop.Product) { p.CategoryID = "" }),
	)
})
