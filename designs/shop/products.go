package shop

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// GetProduct is AP-12 (main table, GetItem): PK PROD, SK PRO#<id>. Unknown
// product: designs.ErrNotFound.
func (t Table) GetProduct(ctx context.Context, id string) (Product, error) {
	return getItem[Product](ctx, t, GetProductID, ProductsPK, ProductSK(id))
}

// ListProducts is AP-13 (main table, Query): the PROD partition, oldest
// product first (IDs are KSUIDs), size products a page.
func (t Table) ListProducts(ctx context.Context, size int, after designs.Cursor) (Page[Product], error) {
	key := partition(Schema.PK, ProductsPK, Schema.SK, productPrefix)
	return queryPage[Product](ctx, t, ListProductsID, designs.PageQuery{Key: key, Size: size, After: after})
}

// ListProductsByBrand is AP-14 (GSI1, Query): GSI1PK BRAND#<brand>. GSI1SK
// starts with the category ID, so the brand's products come grouped by
// category, oldest category first, then oldest product first within each.
// GSI reads are eventually consistent.
func (t Table) ListProductsByBrand(ctx context.Context, brand string, size int, after designs.Cursor) (Page[Product], error) {
	key := expression.Key("GSI1PK").Equal(expression.Value(ProductGSI1PK(brand)))
	return queryPage[Product](ctx, t, ListProductsByBrandID, designs.PageQuery{Index: GSI1, Key: key, Size: size, After: after})
}

// ListProductsByBrandAndCategory is AP-15 (GSI1, Query): GSI1PK
// BRAND#<brand> and GSI1SK beginning with CAT#<category>#, oldest product
// first. GSI reads are eventually consistent.
func (t Table) ListProductsByBrandAndCategory(ctx context.Context, brand, category string, size int, after designs.Cursor) (Page[Product], error) {
	key := partition("GSI1PK", ProductGSI1PK(brand), "GSI1SK", CategoryPrefix(category))
	return queryPage[Product](ctx, t, ListProductsByBrandCatID, designs.PageQuery{Index: GSI1, Key: key, Size: size, After: after})
}

// ListProductsByCategory is AP-16 (GSI2, Query): GSI2PK CAT#<category>.
// GSI2SK starts with the brand ID, so the category's products come grouped
// by brand, oldest brand first, then oldest product first within each. GSI
// reads are eventually consistent.
func (t Table) ListProductsByCategory(ctx context.Context, category string, size int, after designs.Cursor) (Page[Product], error) {
	key := expression.Key("GSI2PK").Equal(expression.Value(ProductGSI2PK(category)))
	return queryPage[Product](ctx, t, ListProductsByCategoryID, designs.PageQuery{Index: GSI2, Key: key, Size: size, After: after})
}

// ListProductsByCategoryAndBrand is AP-17 (GSI2, Query): GSI2PK
// CAT#<category> and GSI2SK beginning with BRAND#<brand>#, oldest product
// first. GSI reads are eventually consistent.
func (t Table) ListProductsByCategoryAndBrand(ctx context.Context, category, brand string, size int, after designs.Cursor) (Page[Product], error) {
	key := partition("GSI2PK", ProductGSI2PK(category), "GSI2SK", BrandPrefix(brand))
	return queryPage[Product](ctx, t, ListProductsByCatBrandID, designs.PageQuery{Index: GSI2, Key: key, Size: size, After: after})
}

// CreateProduct is AP-24 (main table, TransactWriteItems): the product is
// put only if new, with checks that its brand and category exist, so no
// product points at nothing. Outcomes: designs.ErrAlreadyExists (ID taken),
// designs.ErrNotFound (no such brand or category); then nothing is written.
func (t Table) CreateProduct(ctx context.Context, p Product) error {
	if err := checkProduct(p); err != nil {
		return fmt.Errorf("%s: product %s: %w", CreateProductID, p.ID, err)
	}
	tx := designs.Tx{Table: t.Name}
	tx.Put(newProductItem(p), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	tx.Check(Schema.Key(BrandsPK, BrandSK(p.BrandID)), Schema.IsStored(), designs.Because(fmt.Errorf("brand %s: %w", p.BrandID, designs.ErrNotFound)))
	tx.Check(Schema.Key(CategoriesPK, CategorySK(p.CategoryID)), Schema.IsStored(), designs.Because(fmt.Errorf("category %s: %w", p.CategoryID, designs.ErrNotFound)))
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: product %s: %w", CreateProductID, p.ID, err)
	}
	return nil
}

func checkProduct(p Product) error {
	if err := checkName(p.Name); err != nil {
		return err
	}
	if p.PriceCents < 0 || p.Stock < 0 {
		return fmt.Errorf("%w: price and stock must not be negative", designs.ErrInvalidInput)
	}
	for _, ref := range []string{p.BrandID, p.CategoryID} {
		if _, err := designs.IDTime(ref); err != nil {
			return fmt.Errorf("brand and category: %w", err)
		}
	}
	return checkEntity(p.ID, p.CreatedAt, p.UpdatedAt)
}
