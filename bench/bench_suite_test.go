package bench_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestBench(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bench", Label("bench"))
}

// raw is an uninstrumented client of this run's DynamoDB Local, nil when
// the label filter lets no spec that needs one run.
var raw *dynamodb.Client

// schema is a table of plain items with a GSI, for the throughput run.
var schema = designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByGroup", PK: "G", SK: "GS"}}}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

var _ = ddbtest.Local(func(_ SpecContext, db *dynamodb.Client) { raw = db }, func() bool { return ddbtest.WillRun(Label("bench", "engine")) })
