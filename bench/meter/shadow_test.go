package meter_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/fixtures"
)

var _ = Describe("the client's shadow of the table", Label("client"), func() {
	It("stays equal to the table while concurrent transactions rewrite the same hot items", func(ctx SpecContext) {
		name := designs.TableName("accountpool", fmt.Sprintf("shadow-p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, raw, accountpool.Schema, name)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, name)).To(Succeed()) })
		client := meter.NewClient(raw, accountpool.Schema)
		t := accountpool.Table{DB: client, Name: name}
		fake := fixtures.NewAccountPool(GinkgoRandomSeed() + 1)

		const n = 12
		accounts, users := fake.AccountIDs(n), make([]string, n)
		for i := range n {
			users[i] = fake.Email()
			_, err := t.AddUser(ctx, users[i])
			Expect(err).NotTo(HaveOccurred())
			_, err = t.AddAccount(ctx, accounts[i])
			Expect(err).NotTo(HaveOccurred())
			_, err = t.MarkAccountAvailable(ctx, accounts[i])
			Expect(err).NotTo(HaveOccurred())
		}

		By("leasing and returning accounts from 8 goroutines at once, 200 leases in all")
		var mu sync.Mutex
		leaseIDs := make([]string, 0, 200)
		for range 200 {
			leaseIDs = append(leaseIDs, fake.LeaseID())
		}
		var leased, refused atomic.Int64
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), uint64(w)))
				for {
					mu.Lock()
					if len(leaseIDs) == 0 {
						mu.Unlock()
						return
					}
					id := leaseIDs[len(leaseIDs)-1]
					leaseIDs = leaseIDs[:len(leaseIDs)-1]
					mu.Unlock()
					if _, err := t.CreateLease(ctx, id, accounts[r.IntN(n)], users[r.IntN(n)]); err != nil {
						refused.Add(1)
						continue
					}
					leased.Add(1)
					_, _ = t.DeleteLease(ctx, id)
				}
			})
		}
		wg.Wait()
		Expect(leased.Load()).To(BeNumerically(">", 10), "leases went through")
		Expect(refused.Load()).To(BeNumerically(">", 0), "some transactions were cancelled, and cost")

		By("letting the shadow settle what overlapping transactions left unsure, outside any call")
		fid := client.Settle(ctx)
		Expect(fid.Approximations).To(BeZero())
		Expect(fid.StillUnsure).To(BeZero())
		Expect(fid.Unsure).To(BeNumerically(">", 0), "8 goroutines on 12 accounts overlap on the status items")
		Expect(fid.SettleReads).To(BeNumerically(">", 0))

		By("comparing every item the shadow holds with the table, read back in full")
		stored := map[string]ddbitem.Item{}
		var start map[string]types.AttributeValue
		for {
			out, err := raw.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start})
			Expect(err).NotTo(HaveOccurred())
			for _, it := range out.Items {
				stored[it[accountpool.Schema.PK].(*types.AttributeValueMemberS).Value] = it
			}
			if start = out.LastEvaluatedKey; start == nil {
				break
			}
		}
		shadow := map[string]ddbitem.Item{}
		client.Items(name, func(img ddbitem.Item) {
			shadow[img[accountpool.Schema.PK].(*types.AttributeValueMemberS).Value] = img
		})
		Expect(shadow).To(HaveLen(len(stored)))
		for pk, img := range stored {
			Expect(shadow[pk]).To(sameItem(img), "item %s", pk)
		}
	})
})
