package shop

import (
	"context"
	"fmt"

	"github.com/ddbharness/ddbharness/designs"
)

// GetCategory is AP-06 (main table, GetItem): PK CAT, SK CAT#<id>. Unknown
// category: designs.ErrNotFound.
func (t Table) GetCategory(ctx context.Context, id string) (Category, error) {
	return getItem[Category](ctx, t, GetCategoryID, CategoriesPK, CategorySK(id))
}

// ListCategories is AP-07 (main table, Query): the CAT partition, oldest
// category first (IDs are KSUIDs), size categories a page.
func (t Table) ListCategories(ctx context.Context, size int, after designs.Cursor) (Page[Category], error) {
	key := partition(Schema.PK, CategoriesPK, Schema.SK, categoryPrefix)
	return queryPage[Category](ctx, t, ListCategoriesID, listing{key: key, size: size, after: after})
}

// ListCategoriesByNamePrefix is AP-08 (LSI1, Query): PK CAT and SKU
// beginning with CAT#NAME#<prefix>, in name order; case-sensitive.
func (t Table) ListCategoriesByNamePrefix(ctx context.Context, prefix string, size int, after designs.Cursor) (Page[Category], error) {
	if prefix == "" {
		return Page[Category]{}, fmt.Errorf("%s: prefix: %w: want at least one character", ListCategoriesByNamePrefixID, designs.ErrInvalidInput)
	}
	key := partition(Schema.PK, CategoriesPK, Schema.LSIs[0].SK, CategoryNameKey(prefix))
	return queryPage[Category](ctx, t, ListCategoriesByNamePrefixID, listing{index: LSI1, key: key, size: size, after: after})
}

// CreateCategory is AP-22 (main table, PutItem): a conditional put. Names
// need not be unique. A taken ID is designs.ErrAlreadyExists.
func (t Table) CreateCategory(ctx context.Context, c Category) error {
	if err := checkNamed(c.ID, c.Name, c.CreatedAt, c.UpdatedAt); err != nil {
		return fmt.Errorf("%s: category %s: %w", CreateCategoryID, c.ID, err)
	}
	return putNew(ctx, t, CreateCategoryID, "category "+c.ID, newCategoryItem(c))
}
