package designs_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// TestDesigns runs the specs of the shared helpers that need DynamoDB
// (BatchGet); the plain tests beside them are pure code.
func TestDesigns(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "designs", Label("designs"))
}

// raw is an uninstrumented client of this run's DynamoDB Local and table
// this process's table of plainSchema, both unset when the label filter
// lets no spec that needs them run.
var (
	raw   *dynamodb.Client
	table string
)

// plainSchema is a table of string keys and no index: the helpers' specs
// need items, not a design.
var plainSchema = designs.Schema{PK: "PK", SK: "SK"}

var _ = ddbtest.Local(func(ctx SpecContext, db *dynamodb.Client) {
	raw = db
	table = designs.TableName("helpers", fmt.Sprintf("p%d", GinkgoParallelProcess()))
	Expect(designs.CreateTable(ctx, raw, plainSchema, table)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, table)).To(Succeed()) })
}, func() bool { return ddbtest.WillRun(Label("designs", "batch")) })
