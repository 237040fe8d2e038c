package shop

import (
	"context"
	"fmt"

	"github.com/ddbharness/ddbharness/designs"
)

// GetBrand is AP-09 (main table, GetItem): PK BRAND, SK BRAND#<id>. Unknown
// brand: designs.ErrNotFound.
func (t Table) GetBrand(ctx context.Context, id string) (Brand, error) {
	return getItem[Brand](ctx, t, GetBrandID, BrandsPK, BrandSK(id))
}

// ListBrands is AP-10 (main table, Query): the BRAND partition, oldest
// brand first (IDs are KSUIDs), size brands a page.
func (t Table) ListBrands(ctx context.Context, size int, after designs.Cursor) (Page[Brand], error) {
	key := partition(Schema.PK, BrandsPK, Schema.SK, brandPrefix)
	return queryPage[Brand](ctx, t, ListBrandsID, listing{key: key, size: size, after: after})
}

// ListBrandsByNamePrefix is AP-11 (LSI1, Query): PK BRAND and SKU
// beginning with BRAND#NAME#<prefix>, in name order; case-sensitive.
func (t Table) ListBrandsByNamePrefix(ctx context.Context, prefix string, size int, after designs.Cursor) (Page[Brand], error) {
	if prefix == "" {
		return Page[Brand]{}, fmt.Errorf("%s: prefix: %w: want at least one character", ListBrandsByNamePrefixID, designs.ErrInvalidInput)
	}
	key := partition(Schema.PK, BrandsPK, Schema.LSIs[0].SK, BrandNameKey(prefix))
	return queryPage[Brand](ctx, t, ListBrandsByNamePrefixID, listing{index: LSI1, key: key, size: size, after: after})
}

// CreateBrand is AP-23 (main table, PutItem): a conditional put. Names
// need not be unique. A taken ID is designs.ErrAlreadyExists.
func (t Table) CreateBrand(ctx context.Context, b Brand) error {
	if err := checkNamed(b.ID, b.Name, b.CreatedAt, b.UpdatedAt); err != nil {
		return fmt.Errorf("%s: brand %s: %w", CreateBrandID, b.ID, err)
	}
	return putNew(ctx, t, CreateBrandID, "brand "+b.ID, newBrandItem(b))
}
