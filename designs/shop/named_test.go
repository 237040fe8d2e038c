package shop_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/fixtures"
)

// Categories and brands are the same shape (see shop/named.go), so one
// spec body proves both: describeNamed declares the four pattern containers
// of a kind, each titled and labelled from its catalog entry.
var (
	_ = describeNamed(categoryKind)
	_ = describeNamed(brandKind)
)

// createCategories and createBrands store n new categories or brands,
// oldest first, each name starting with prefix.
func createCategories(ctx context.Context, n int, prefix string) []shop.Category {
	return categoryKind.createN(ctx, quiet, n, prefix)
}

func createBrands(ctx context.Context, n int, prefix string) []shop.Brand {
	return brandKind.createN(ctx, quiet, n, prefix)
}

var (
	categoryKind = namedKind[shop.Category]{noun: "category", nouns: "categories", pk: shop.CategoriesPK, sk: shop.CategorySK,
		getID: shop.GetCategoryID, listID: shop.ListCategoriesID, byNameID: shop.ListCategoriesByNamePrefixID, createID: shop.CreateCategoryID,
		fake: (*fixtures.Shop).Category, get: shop.Table.GetCategory, list: shop.Table.ListCategories,
		byName: shop.Table.ListCategoriesByNamePrefix, create: shop.Table.CreateCategory}
	brandKind = namedKind[shop.Brand]{noun: "brand", nouns: "brands", pk: shop.BrandsPK, sk: shop.BrandSK,
		getID: shop.GetBrandID, listID: shop.ListBrandsID, byNameID: shop.ListBrandsByNamePrefixID, createID: shop.CreateBrandID,
		fake: (*fixtures.Shop).Brand, get: shop.Table.GetBrand, list: shop.Table.ListBrands,
		byName: shop.Table.ListBrandsByNamePrefix, create: shop.Table.CreateBrand}
)

// namedKind is what the shared specs need of one kind: its nouns for spec
// text, its keys, its pattern IDs, its fixture and its patterns, as method
// expressions so that each call uses this process's table and generator.
type namedKind[T shop.Category | shop.Brand] struct {
	noun, nouns                       string
	pk                                string
	sk                                func(id string) string
	getID, listID, byNameID, createID designs.PatternID
	fake                              func(*fixtures.Shop) T
	get                               func(shop.Table, context.Context, string) (T, error)
	list                              func(shop.Table, context.Context, int, designs.Cursor) (shop.Page[T], error)
	byName                            func(shop.Table, context.Context, string, int, designs.Cursor) (shop.Page[T], error)
	create                            func(shop.Table, context.Context, T) error
}

// named is the fields Category and Brand share: a value of either converts
// to it, and back.
type named struct {
	ID        string
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// describe declares the container of pattern id, titled and labelled from
// the shop catalog like every other pattern's.
func describe(id designs.PatternID, body func()) bool {
	p, ok := shop.Design.Pattern(id)
	if !ok {
		panic(fmt.Sprintf("pattern %s is not in the shop catalog", id))
	}
	return Describe(string(id)+" "+p.Name, Label(string(id), p.Index), body)
}

// createN stores n new entities of the kind through via (quiet for a
// spec's setup, table for the create under test), oldest first, each name
// starting with prefix.
func (k namedKind[T]) createN(ctx context.Context, via shop.Table, n int, prefix string) []T {
	all := make([]T, n)
	for i := range all {
		e := named(k.fake(fake))
		e.Name = prefix + e.Name
		all[i] = T(e)
		Expect(k.create(via, ctx, all[i])).To(Succeed())
	}
	return all
}

// describeNamed declares the specs of one kind's four patterns.
func describeNamed[T shop.Category | shop.Brand](k namedKind[T]) bool {
	list := func(ctx context.Context, size int, after designs.Cursor) (shop.Page[T], error) {
		return k.list(table, ctx, size, after)
	}
	byName := func(prefix string) lister[T] {
		return func(ctx context.Context, size int, after designs.Cursor) (shop.Page[T], error) {
			return k.byName(table, ctx, prefix, size, after)
		}
	}

	describe(k.getID, func() {
		var v T
		BeforeEach(func(ctx SpecContext) { v = k.createN(ctx, quiet, 1, "")[0] })

		It("returns the stored "+k.noun, func(ctx SpecContext) {
			env.Answers(k.get(table, ctx, named(v).ID))(v)
		})
		It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
			_, err := k.get(table, ctx, named(k.fake(fake)).ID)
			env.Refuses(err, designs.ErrNotFound)
		})
	})

	describe(k.listID, func() {
		var mine []T
		BeforeEach(func(ctx SpecContext) { mine = k.createN(ctx, quiet, 4, "") })

		DescribeTable("pages through every "+k.noun+", oldest first, this spec's "+k.nouns+" last",
			func(ctx SpecContext, size int) {
				all := pageAll(ctx, Default, size, list)
				ids := make([]string, len(all))
				for i, v := range all {
					ids[i] = named(v).ID
				}
				ascending(ids)
				Expect(tail(all, len(mine))).To(Equal(mine))
			},
			Entry("one "+k.noun+" a page", 1),
			Entry("three "+k.nouns+" a page", 3),
			Entry("the largest page", shop.MaxPageSize),
		)
	})

	describe(k.byNameID, func() {
		var prefix string
		var matching []T
		BeforeEach(func(ctx SpecContext) {
			prefix = fake.Token(10)
			// Distinct names, made out of name order: DynamoDB leaves the
			// order of equal index sort keys unspecified.
			matching = nil
			for _, mark := range []string{" d ", " b ", " c ", " a "} {
				matching = append(matching, k.createN(ctx, quiet, 1, prefix+mark)...)
			}
			k.createN(ctx, quiet, 1, "x"+prefix) // holds the prefix, but not at the start
			slices.SortFunc(matching, func(a, b T) int { return strings.Compare(named(a).Name, named(b).Name) })
		})

		It("lists exactly the "+k.nouns+" whose name starts with the prefix, in name order", func(ctx SpecContext) {
			indexed(ctx, byName(prefix), matching, 2, 4)
		})
		It("matches names case-sensitively", func(ctx SpecContext) {
			page, err := k.byName(table, ctx, strings.ToUpper(prefix), 5, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(page.Items).To(BeEmpty())
			Expect(page.Next).To(BeEmpty())
		})
		It("refuses an empty prefix", func(ctx SpecContext) {
			_, err := k.byName(table, ctx, "", 5, "")
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		})
	})

	return describe(k.createID, func() {
		It("stores the "+k.noun+" on the table and LSI1", func(ctx SpecContext) {
			v := k.createN(ctx, table, 1, fake.Token(10)+" ")[0]
			Expect(k.get(quiet, ctx, named(v).ID)).To(Equal(v))
			indexed(ctx, byName(named(v).Name), []T{v}, 1)
		})
		It("allows two "+k.nouns+" of one name", func(ctx SpecContext) {
			twins := []T{k.fake(fake), k.fake(fake)}
			name := fake.Token(10)
			for i := range twins {
				e := named(twins[i])
				e.Name = name
				twins[i] = T(e)
				Expect(k.create(table, ctx, twins[i])).To(Succeed())
			}
			Eventually(ctx, func(g Gomega) {
				g.Expect(pageAll(ctx, g, 5, byName(name))).To(ConsistOf(twins))
			}).Should(Succeed())
		})
		It("refuses a taken ID and keeps the first "+k.noun, func(ctx SpecContext) {
			v := k.createN(ctx, quiet, 1, "")[0]
			other := named(v)
			other.Name = "Other " + other.Name
			Expect(k.create(table, ctx, T(other))).To(MatchError(designs.ErrAlreadyExists))
			Expect(k.get(quiet, ctx, named(v).ID)).To(Equal(v))
		})
		DescribeTable("refuses an invalid "+k.noun+" before writing",
			func(ctx SpecContext, spoil func(*named)) {
				e := named(k.fake(fake))
				spoil(&e)
				Expect(k.create(table, ctx, T(e))).To(MatchError(designs.ErrInvalidInput))
				Expect(stored(ctx, k.pk, k.sk(e.ID))).To(BeFalse())
			},
			Entry("without a name", func(e *named) { e.Name = "" }),
			Entry("with a name too long for a sort key", func(e *named) { e.Name = strings.Repeat("n", 257) }),
			Entry("with an ID that is no KSUID", func(e *named) { e.ID = k.noun + "-1" }),
			Entry("with an ID of another second than CreatedAt", func(e *named) { e.CreatedAt = e.CreatedAt.Add(time.Second) }),
		)
	})
}
