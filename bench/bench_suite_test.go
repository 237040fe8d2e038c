package bench_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
)

func TestBench(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bench", Label("bench"))
}

// Labels of the specs that need DynamoDB Local.
var onLocal = []string{"client", "engine"}

// raw is an uninstrumented client of this run's DynamoDB Local, nil when
// the label filter lets no spec that needs one run; table is this
// process's table of schema, for the client's specs.
var (
	raw   *dynamodb.Client
	table string
)

// schema has an index of each projection, so that reads of each can be
// checked: a GSI of whole items, a KEYS_ONLY GSI and an INCLUDE LSI.
var schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{
		{Name: "ByGroup", PK: "G", SK: "GS"},
		{Name: "Slim", PK: "K", Projection: types.ProjectionTypeKeysOnly},
	},
	LSIs: []designs.Index{{Name: "ByRank", SK: "R", Projection: types.ProjectionTypeInclude, NonKey: []string{"Name"}}},
}

var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	if !localWillRun() {
		return nil
	}
	endpoint, stop, err := ddblocal.Start(ctx)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	return []byte(endpoint)
}, func(ctx SpecContext, endpoint []byte) {
	if len(endpoint) == 0 {
		return
	}
	raw = ddblocal.Client(string(endpoint))
	table = designs.TableName("benchclient", fmt.Sprintf("p%d", GinkgoParallelProcess()))
	Expect(designs.CreateTable(ctx, raw, schema, table)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, table)).To(Succeed()) })
})

func localWillRun() bool {
	filter := GinkgoLabelFilter()
	for _, l := range onLocal {
		if filter == "" || Label("bench", l).MatchesLabelFilter(filter) {
			return true
		}
	}
	return false
}
