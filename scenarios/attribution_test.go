package scenarios_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// The capacity rules are unit-tested against hand-computed figures
// (bench/capacity); these specs prove that what the instrumented client
// feeds them is exact for the designs' real patterns on DynamoDB Local:
// every image a read or write carries, and (workloads_test.go) the
// partition every charge lands on.

var _ = Describe("capacity attribution", attributionSpecs, func() {
	DescribeTable("the client's images are the table's, call by call, then after concurrent calls",
		func(ctx SpecContext, sc workload.Scenario) {
			const pool, workers, each = 12, 8, 3
			s := sc.Design.Schema
			table := newTable(ctx, sc.Design, "images")
			client := meter.NewClient(db, s)
			d := sc.Driver(client, table, seed())
			Expect(d.Seed(ctx, pool, nil)).To(Succeed())
			space, err := sc.KeySpace(d)
			Expect(err).NotTo(HaveOccurred())

			By("knowing every seeded item as stored")
			ref := storedItems(ctx, s, table)
			expectSameItems(shadowItems(client, s, table), ref, "after the seed")

			By("carrying, one call at a time, the stored item before each write, after it, and under each read")
			rec := &meter.Recorder{}
			client.Observe(rec.Observe)
			r := rand.New(rand.NewPCG(uint64(seed()), 0))
			for i, st := range sc.Mix {
				for _, key := range edgeKeys(space[i]) {
					err := d.Call(designs.WithPattern(ctx, st.Pattern), st.Pattern, key, r)
					if err != nil {
						Expect(expected(d, sc.Design.Name, st.Pattern, err)).To(BeTrue(), "%s %s on key %d: %v", sc.Name, st.Pattern, key, err)
					}
					call := fmt.Sprintf("%s on key %d", st.Pattern, key)
					written := map[string]ddbitem.Item{}
					for _, o := range rec.Take() {
						Expect(o.Pattern).To(Equal(st.Pattern), "%s: %s attributed to", call, o.Op)
						checkReads(s, o, ref, call)
						for _, w := range o.Writes {
							id := itemID(s, w.Key)
							Expect(w.Before).To(ddbtest.SameItem(ref[id]), "%s: %s: the image before writing %s", call, o.Op, id)
							if w.Failed {
								Expect(w.After).To(ddbtest.SameItem(w.Before), "%s: %s: a failed write of %s changes nothing", call, o.Op, id)
							}
							ref[id] = w.After
							written[id] = w.Key
						}
					}
					for id, key := range written {
						stored := getStored(ctx, table, key)
						Expect(ref[id]).To(ddbtest.SameItem(stored), "%s: the image after writing %s", call, id)
						ref[id] = stored
						if stored == nil {
							delete(ref, id)
						}
					}
				}
			}
			client.Observe(nil)
			expectSameItems(shadowItems(client, s, table), storedItems(ctx, s, table), "after the calls one at a time")

			By("keeping the images true when calls run at once")
			work := make(chan int) // a step of the mix
			var wg sync.WaitGroup
			for w := range workers {
				r := rand.New(rand.NewPCG(uint64(seed()), uint64(w+1)))
				wg.Go(func() {
					defer GinkgoRecover()
					for i := range work {
						st, key := sc.Mix[i], drawKey(sc.Mix[i], space[i], r)
						if err := d.Call(designs.WithPattern(ctx, st.Pattern), st.Pattern, key, r); err != nil {
							Expect(expected(d, sc.Design.Name, st.Pattern, err)).To(BeTrue(), "%s %s on key %d: %v", sc.Name, st.Pattern, key, err)
						}
					}
				})
			}
			for range each {
				for i := range sc.Mix {
					work <- i
				}
			}
			close(work)
			wg.Wait()
			fid := client.Settle(ctx)
			Expect(fid.Approximations).To(BeZero(), "writes whose after image the client could not compute")
			Expect(fid.StillUnsure).To(BeZero(), "items the shadow could not settle")
			expectSameItems(shadowItems(client, s, table), storedItems(ctx, s, table), "after the calls at once")
		},
		scenarioEntries(scenarios.All),
	)
})

// checkReads checks that every item a read observed is the item as stored
// (ref), projected onto the index it read, and that every key a point read
// found nothing at holds nothing.
func checkReads(s designs.Schema, o pricing.Observation, ref map[string]ddbitem.Item, call string) {
	GinkgoHelper()
	for _, img := range o.Reads {
		id := itemID(s, img)
		Expect(ref).To(HaveKey(id), "%s: %s read %s, which the table does not hold", call, o.Op, id)
		want := ref[id]
		if o.Index != "" {
			want = s.ItemSchema().EntryOf(o.Index, want)
		}
		Expect(img).To(ddbtest.SameItem(want), "%s: %s %s: the image read of %s", call, o.Op, o.Index, id)
	}
	if o.Op == designs.GetItem || o.Op == designs.BatchGetItem || o.Op == designs.TransactGetItems {
		for _, k := range o.Addressed {
			Expect(ref).NotTo(HaveKey(itemID(s, k)), "%s: %s missed an item the table holds", call, o.Op)
		}
	}
}

// itemID names an item by its primary key (designs.Schema.KeyID): an
// imported design may key on numbers, which DynamoDB compares by value, or
// on binaries.
func itemID(s designs.Schema, item ddbitem.Item) string {
	GinkgoHelper()
	id, ok := s.KeyID(item)
	if !ok {
		Fail(fmt.Sprintf("a key attribute of %s / %s is missing or not a string, number or binary: %v", s.PK, s.SK, item))
	}
	return id
}

// storedItems reads the whole table, consistently, by primary key.
func storedItems(ctx context.Context, s designs.Schema, table string) map[string]ddbitem.Item {
	GinkgoHelper()
	out := map[string]ddbitem.Item{}
	p := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		Expect(err).NotTo(HaveOccurred())
		for _, item := range page.Items {
			out[itemID(s, item)] = item
		}
	}
	return out
}

// shadowItems is every item the client knows the table to hold.
func shadowItems(c *meter.Client, s designs.Schema, table string) map[string]ddbitem.Item {
	out := map[string]ddbitem.Item{}
	c.Items(table, func(img ddbitem.Item) { out[itemID(s, img)] = img })
	return out
}

// getStored reads one item as stored (nil: none), past the client.
func getStored(ctx context.Context, table string, key ddbitem.Item) ddbitem.Item {
	GinkgoHelper()
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	Expect(err).NotTo(HaveOccurred())
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// expectSameItems checks that got holds exactly want's items, attribute for
// attribute.
func expectSameItems(got, want map[string]ddbitem.Item, when string) {
	GinkgoHelper()
	Expect(slices.Sorted(maps.Keys(got))).To(Equal(slices.Sorted(maps.Keys(want))), "%s: the items", when)
	for id, item := range want {
		Expect(got[id]).To(ddbtest.SameItem(item), "%s: item %s", when, id)
	}
}
