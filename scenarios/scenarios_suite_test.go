package scenarios_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestScenarios(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "scenarios", Label("scenarios"))
}

// The labels of the specs that need DynamoDB Local; the others are
// labelled "unit" and run without it (make test).
var (
	loaderSpecs      = Label("dynamodb", "loader")
	driverSpecs      = Label("dynamodb", "drivers")
	attributionSpecs = Label("dynamodb", "attribution")
)

// db is the client of this run's DynamoDB Local; nil when the label filter
// lets no spec that needs it run.
var db *dynamodb.Client

var _ = ddbtest.Local(func(_ SpecContext, c *dynamodb.Client) { db = c }, func() bool {
	var needs []Labels
	for _, l := range []Labels{loaderSpecs, driverSpecs, attributionSpecs} {
		needs = append(needs, Label(slices.Concat(l, Labels{"scenarios"})...))
		for _, d := range all.Designs { // table entries carry their design's label
			needs = append(needs, Label(slices.Concat(l, Labels{"scenarios", d.Label()})...))
		}
	}
	return ddbtest.WillRun(needs...)
})

// newTable creates a table of the design for this spec alone and deletes
// it when the spec ends.
func newTable(ctx context.Context, d designs.Design, tag string) string {
	GinkgoHelper()
	name := designs.TableName(d.Name, fmt.Sprintf("p%d-%s", GinkgoParallelProcess(), tag))
	Expect(designs.CreateTable(ctx, db, d.Schema, name)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) {
		Expect(designs.DeleteTable(ctx, db, name)).To(Succeed())
	})
	return name
}

// scanAll reads every item of the table, as plain Go values (sets sorted)
// so that two tables compare with Equal.
func scanAll(ctx context.Context, table string) []map[string]any {
	GinkgoHelper()
	var out []map[string]any
	p := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		Expect(err).NotTo(HaveOccurred())
		for _, item := range page.Items {
			out = append(out, ddbitem.CanonicalJSON(item))
		}
	}
	return out
}

// seed is a fixture seed, non-zero as gofakeit wants, from Ginkgo's own.
func seed() int64 { return GinkgoRandomSeed()%1_000_000 + 1 }
