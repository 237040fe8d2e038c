package meter_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestMeter(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "meter", Label("meter"))
}

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

var _ = ddbtest.Local(func(ctx SpecContext, db *dynamodb.Client) {
	raw = db
	table = designs.TableName("benchclient", fmt.Sprintf("p%d", GinkgoParallelProcess()))
	Expect(designs.CreateTable(ctx, raw, schema, table)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, table)).To(Succeed()) })
}, func() bool {
	return ddbtest.WillRun(Label("meter", "client"), Label("meter", "client", "batch"), Label("meter", "keys"))
})
