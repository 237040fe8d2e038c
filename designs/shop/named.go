package shop

import (
	"context"
	"fmt"
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

// Categories and brands are the same shape: a named entity in a constant
// partition, in KSUID (creation) order on the table and in name order on
// LSI1. One implementation, namedKind, serves both; the methods below give
// each pattern its name, ID and doc.

// GetCategory is AP-06 (main table, GetItem): PK CAT, SK CAT#<id>. Unknown
// category: designs.ErrNotFound.
func (t Table) GetCategory(ctx context.Context, id string) (Category, error) {
	return categories.get(ctx, t, id)
}

// ListCategories is AP-07 (main table, Query): the CAT partition, oldest
// category first (IDs are KSUIDs), size categories a page.
func (t Table) ListCategories(ctx context.Context, size int, after designs.Cursor) (Page[Category], error) {
	return categories.list(ctx, t, size, after)
}

// ListCategoriesByNamePrefix is AP-08 (LSI1, Query): PK CAT and SKU
// beginning with CAT#NAME#<prefix>, in name order; case-sensitive.
func (t Table) ListCategoriesByNamePrefix(ctx context.Context, prefix string, size int, after designs.Cursor) (Page[Category], error) {
	return categories.listByNamePrefix(ctx, t, prefix, size, after)
}

// CreateCategory is AP-22 (main table, PutItem): a conditional put. Names
// need not be unique. A taken ID is designs.ErrAlreadyExists.
func (t Table) CreateCategory(ctx context.Context, c Category) error {
	return categories.create(ctx, t, c)
}

// GetBrand is AP-09 (main table, GetItem): PK BRAND, SK BRAND#<id>. Unknown
// brand: designs.ErrNotFound.
func (t Table) GetBrand(ctx context.Context, id string) (Brand, error) {
	return brands.get(ctx, t, id)
}

// ListBrands is AP-10 (main table, Query): the BRAND partition, oldest
// brand first (IDs are KSUIDs), size brands a page.
func (t Table) ListBrands(ctx context.Context, size int, after designs.Cursor) (Page[Brand], error) {
	return brands.list(ctx, t, size, after)
}

// ListBrandsByNamePrefix is AP-11 (LSI1, Query): PK BRAND and SKU
// beginning with BRAND#NAME#<prefix>, in name order; case-sensitive.
func (t Table) ListBrandsByNamePrefix(ctx context.Context, prefix string, size int, after designs.Cursor) (Page[Brand], error) {
	return brands.listByNamePrefix(ctx, t, prefix, size, after)
}

// CreateBrand is AP-23 (main table, PutItem): a conditional put. Names
// need not be unique. A taken ID is designs.ErrAlreadyExists.
func (t Table) CreateBrand(ctx context.Context, b Brand) error {
	return brands.create(ctx, t, b)
}

// namedEntity is a Category or a Brand. Their fields are the same, so a
// value of either converts to named, whose fields the shared code reads.
type namedEntity interface{ Category | Brand }

// named is the fields Category and Brand share, in their order.
type named struct {
	ID        string
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// namedKind is one of the two catalogs: its constant partition, its keys,
// its pattern IDs, its noun in errors and its storage item.
type namedKind[T namedEntity] struct {
	noun    string
	pk      string                   // the constant partition
	prefix  string                   // starts every table SK of the kind
	sk      func(id string) string   // table SK
	nameKey func(name string) string // LSI1 SKU
	item    func(T) any              // the storage item

	getID, listID, byNameID, createID designs.PatternID
}

var (
	categories = namedKind[Category]{noun: "category", pk: CategoriesPK, prefix: categoryPrefix,
		sk: CategorySK, nameKey: CategoryNameKey, item: func(c Category) any { return newCategoryItem(c) },
		getID: GetCategoryID, listID: ListCategoriesID, byNameID: ListCategoriesByNamePrefixID, createID: CreateCategoryID}
	brands = namedKind[Brand]{noun: "brand", pk: BrandsPK, prefix: brandPrefix,
		sk: BrandSK, nameKey: BrandNameKey, item: func(b Brand) any { return newBrandItem(b) },
		getID: GetBrandID, listID: ListBrandsID, byNameID: ListBrandsByNamePrefixID, createID: CreateBrandID}
)

func (k namedKind[T]) get(ctx context.Context, t Table, id string) (T, error) {
	return getItem[T](ctx, t, k.getID, k.pk, k.sk(id))
}

func (k namedKind[T]) list(ctx context.Context, t Table, size int, after designs.Cursor) (Page[T], error) {
	key := partition(Schema.PK, k.pk, Schema.SK, k.prefix)
	return queryPage[T](ctx, t, k.listID, designs.PageQuery{Key: key, Size: size, After: after})
}

func (k namedKind[T]) listByNamePrefix(ctx context.Context, t Table, prefix string, size int, after designs.Cursor) (Page[T], error) {
	if prefix == "" {
		return Page[T]{}, fmt.Errorf("%s: prefix: %w: want at least one character", k.byNameID, designs.ErrInvalidInput)
	}
	key := partition(Schema.PK, k.pk, Schema.LSIs[0].SK, k.nameKey(prefix))
	return queryPage[T](ctx, t, k.byNameID, designs.PageQuery{Index: LSI1, Key: key, Size: size, After: after})
}

func (k namedKind[T]) create(ctx context.Context, t Table, v T) error {
	n := named(v)
	if err := n.check(); err != nil {
		return fmt.Errorf("%s: %s %s: %w", k.createID, k.noun, n.ID, err)
	}
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, k.item(v)); err != nil {
		return fmt.Errorf("%s: %s %s: %w", k.createID, k.noun, n.ID, err)
	}
	return nil
}

// check validates a category or brand: a name that fits a sort key, and
// the ID and time rules every entity shares.
func (n named) check() error {
	if err := checkName(n.Name); err != nil {
		return err
	}
	return checkEntity(n.ID, n.CreatedAt, n.UpdatedAt)
}
