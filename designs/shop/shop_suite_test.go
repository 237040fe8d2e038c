package shop_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestShop(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "shop", Label(shop.Design.Label()))
}

var env = ddbtest.Setup(shop.Design)

var (
	table shop.Table // this process's own table
	// quiet is the table as the specs read it back to check what a
	// pattern stored: through the read patterns, never behind hostile
	// verify's fault rules.
	quiet shop.Table
	fake  *fixtures.Shop
)

var _ = BeforeEach(func() {
	table = shop.Table{DB: env.Patterns, Name: env.Table}
	quiet = shop.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewShop(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})

// stored reports whether the item at pk/sk exists, read consistently from
// the table itself rather than through any pattern.
func stored(ctx context.Context, pk, sk string) bool {
	GinkgoHelper()
	return env.Stored(ctx, shop.Schema.Key(pk, sk))
}

// rawItem is the item at pk/sk, read consistently; nil when absent.
func rawItem(ctx context.Context, pk, sk string) map[string]any {
	GinkgoHelper()
	raw := env.Item(ctx, shop.Schema.Key(pk, sk))
	if raw == nil {
		return nil
	}
	var item map[string]any
	Expect(attributevalue.UnmarshalMap(raw, &item)).To(Succeed())
	return item
}

// lister is one listing with its own arguments bound.
type lister[T any] func(ctx context.Context, size int, after designs.Cursor) (shop.Page[T], error)

// pageAll pages through a listing size items at a time and returns every
// item in order. Every page but the last is full and has a Next; the last
// has no Next and is empty only when the listing is.
func pageAll[T any](ctx context.Context, g Gomega, size int, list lister[T]) []T {
	var all []T
	var after designs.Cursor
	for pages := 1; ; pages++ {
		page, err := list(ctx, size, after)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(len(page.Items)).To(BeNumerically("<=", size), "page %d", pages)
		all = append(all, page.Items...)
		if page.Next == "" {
			g.Expect(len(page.Items) == 0 && pages > 1).To(BeFalse(), "an empty last page after a Next")
			return all
		}
		g.Expect(page.Items).To(HaveLen(size), "page %d has a Next but is not full", pages)
		after = page.Next
	}
}

// indexed reads a listing through Eventually (index reads are eventually
// consistent) and expects exactly want, in order, at every page size given.
func indexed[T any](ctx SpecContext, list lister[T], want []T, sizes ...int) {
	for _, size := range sizes {
		Eventually(ctx, func(g Gomega) {
			g.Expect(pageAll(ctx, g, size, list)).To(Equal(want), "page size %d", size)
		}).Should(Succeed())
	}
}

// tail is the last n items of all.
func tail[T any](all []T, n int) []T {
	Expect(len(all)).To(BeNumerically(">=", n))
	return all[len(all)-n:]
}

// ascending expects keys strictly increasing: sorted and without repeats.
func ascending(keys []string) {
	for i := 1; i < len(keys); i++ {
		Expect(keys[i-1] < keys[i]).To(BeTrue(), "%q then %q at %d", keys[i-1], keys[i], i)
	}
}
