package bench_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// The filtering design: each order list holds ordersPerList orders of
// orderBytes, one in four open. AP-01 lists a list's open orders with a
// filter, page by page; AP-02 counts a list's orders.
const (
	ordersPerList = 8
	orderBytes    = 1500
)

var filterDesign = designs.Design{Name: "filtering", Schema: schema, Patterns: []designs.Pattern{
	{ID: "AP-01", Name: "open orders of a list", Op: designs.Query, Index: designs.MainTable, Pages: true, Filters: []string{"Status"}},
	{ID: "AP-02", Name: "count a list's orders", Op: designs.Query, Index: designs.MainTable, MaxItems: 1, Counts: true},
}}

type filterDriver struct {
	db    designs.DB
	table string
}

func listKey(key int) string { return fmt.Sprintf("LIST#%d", key) }

func (d filterDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	for i := range n {
		for j := range ordersPerList {
			it := ddbitem.Item{"PK": s(listKey(i)), "SK": s(fmt.Sprintf("ORDER#%02d", j)), "Status": s("closed")}
			if j%4 == 0 {
				it["Status"] = s("open!")
			}
			it["Pad"] = s(strings.Repeat("x", orderBytes-ddbitem.Size(it)-len("Pad")))
			if _, err := d.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(d.table), Item: it}); err != nil {
				return err
			}
		}
		progress(i+1, n)
	}
	return nil
}

func (d filterDriver) Call(ctx context.Context, p designs.PatternID, key int, _ *rand.Rand) error {
	in := &dynamodb.QueryInput{TableName: aws.String(d.table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(listKey(key))}}
	switch p {
	case "AP-01":
		in.FilterExpression, in.Limit = aws.String("#s = :open"), aws.Int32(5)
		in.ExpressionAttributeNames = map[string]string{"#s": "Status"}
		in.ExpressionAttributeValues[":open"] = s("open!")
	case "AP-02":
		in.Select = types.SelectCount
	}
	for {
		out, err := d.db.Query(ctx, in)
		if err != nil || out.LastEvaluatedKey == nil {
			return err
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

var _ = Describe("a scenario whose patterns filter and count", Label("engine"), func() {
	It("charges them for every item they evaluated, which DynamoDB Local agrees with, and says so", func(ctx SpecContext) {
		sc := workload.Scenario{Name: "filtering/orders", About: "filtered and counting reads", Design: filterDesign, Pool: 10,
			Pacer: vegeta.ConstantPacer{Freq: 40, Per: time.Second}, Duration: time.Second,
			Mix:    []workload.Step{{Pattern: "AP-01", Weight: 1}, {Pattern: "AP-02", Weight: 1}},
			Driver: func(db designs.DB, table string, _ int64) workload.Driver { return filterDriver{db, table} }}
		// Every call must finish for the per-page arithmetic below: a call
		// cut off between its pages leaves one page in the ledger. A long
		// drain lets a slow test bed finish them.
		out, err := bench.Run(ctx, raw, sc, engine.Warmup(0), engine.Workers(4), engine.Drain(2*time.Minute), engine.Progress(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Unsent+out.CutOff).To(BeZero(), "calls left unfinished: the test bed was too slow for this run")
		Expect(out.Total.Success).To(Equal(1.0))

		usage := map[designs.PatternID]int64{}
		for _, p := range out.Capacity.Patterns {
			usage[p.Pattern] = p.Calls
			Expect(p.LocalCharged).To(BeZero(), "the shadow knows every item the run wrote")
			switch p.Pattern {
			case "AP-01": // pages of 5 and 3 orders: 7,500 B and 4,500 B, 2 units each; 2 of 8 kept
				Expect(p.Filtered).To(Equal(p.Calls))
				Expect(p.Evaluated).To(Equal(p.Calls / 2 * ordersPerList))
				Expect(p.Returned).To(Equal(p.Calls / 2 * 2))
				Expect(p.RCU).To(Equal(2.0 * float64(p.Calls)))
			case "AP-02": // 8 orders, 12,000 B: 3 units, as for reading them
				Expect(p.Counted).To(Equal(p.Calls))
				Expect(p.Evaluated).To(Equal(p.Calls * ordersPerList))
				Expect(p.RCU).To(Equal(3.0 * float64(p.Calls)))
			}
			Expect(p.Local).To(Equal(p.RCU), "DynamoDB Local charges the evaluated items too")
		}
		Expect(usage).To(HaveKey(designs.PatternID("AP-01")))
		Expect(usage).To(HaveKey(designs.PatternID("AP-02")))
		Expect(out.Capacity.Disagreements).To(BeEmpty())
		Expect(out.Capacity.Findings).To(ContainElement(ContainSubstring("AP-01 filters: DynamoDB charges every item it evaluates")))
		Expect(out.Capacity.Findings).To(ContainElement(ContainSubstring("AP-02 counts (Select=COUNT)")))

		dir, err := report.Write(GinkgoT().TempDir(), out)
		Expect(err).NotTo(HaveOccurred())
		summary, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(ContainSubstring("### Filtered and counting reads"))
		Expect(string(summary)).To(ContainSubstring("Local's consumed capacity agreed with AWS's rules"))
		Expect(string(summary)).To(ContainSubstring("### A new on-demand table"))
	})
})
