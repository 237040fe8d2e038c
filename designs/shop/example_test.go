package shop_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
)

// ExampleTable calls a design's patterns through its table handle: the
// handle holds the DB its patterns call (here the lint's in-memory table,
// which serves single-item calls; a spec gives it DynamoDB Local's client,
// bench its instrumented one) and the table's name.
func ExampleTable() {
	ctx := context.Background()
	t := shop.Table{DB: memtable.NewMemory(shop.Schema.ItemSchema(), "shop"), Name: "shop"}

	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	c := shop.Category{ID: designs.NewID(at), Name: "Tea", CreatedAt: at, UpdatedAt: at}
	fmt.Println("create:", t.CreateCategory(ctx, c))
	fmt.Println("again:", errors.Is(t.CreateCategory(ctx, c), designs.ErrAlreadyExists))

	got, err := t.GetCategory(ctx, c.ID)
	fmt.Println("get:", got.Name, got.CreatedAt.Equal(at), err)
	_, err = t.GetCategory(ctx, "no-such-id")
	fmt.Println("unknown:", errors.Is(err, designs.ErrNotFound))
	// Output:
	// create: <nil>
	// again: true
	// get: Tea true <nil>
	// unknown: true
}
