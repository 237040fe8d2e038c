package meter_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("designs.BatchGet through the instrumented client", Label("client"), func() {
	It("charges each BatchGetItem call its reads and misses, and no key handed back as a miss", func(ctx SpecContext) {
		pk := freshPK()
		var keys []map[string]types.AttributeValue
		var want []row
		for i := range 105 { // two calls: 100 keys, then 5
			sk := fmt.Sprintf("%03d", i)
			keys = append(keys, key(pk, sk))
			if i%5 == 0 { // 21 stored, 84 missing
				rawPut(ctx, item(pk, sk, "Name", "n"+sk))
				want = append(want, row{pk, sk, "n" + sk})
			}
		}
		faults := &ddbtest.HandBack{DB: raw, Withhold: func(call int, ks []map[string]types.AttributeValue) (send, back []map[string]types.AttributeValue) {
			if call == 0 {
				return ks[1:], ks[:1] // the first key, stored, comes back unprocessed once
			}
			return ks, nil
		}}
		client := meter.NewClient(faults, schema)
		rec := &meter.Recorder{}
		client.Observe(rec.Observe)

		rows, found, err := designs.BatchGet[row](as(ctx), client, table, keys, true)
		Expect(err).NotTo(HaveOccurred())
		var got []row
		for i, ok := range found {
			if ok {
				got = append(got, rows[i])
			}
		}
		Expect(got).To(Equal(want))
		Expect(faults.Calls()).To(Equal([]int{100, 1, 5}))

		obs := rec.Take()
		Expect(obs).To(HaveLen(3))
		reads, misses := 0, 0
		for _, o := range obs {
			Expect(o.Op).To(Equal(designs.BatchGetItem))
			Expect(o.Consistent).To(BeTrue())
			reads, misses = reads+len(o.Reads), misses+o.Misses
		}
		Expect(reads).To(Equal(21))
		Expect(misses).To(Equal(84), "the key handed back is read on the retry, not charged as a miss")
		Expect(obs[0].Misses).To(Equal(80), "of the first call's 100 keys, 20 stored, 1 handed back")
	})
})
