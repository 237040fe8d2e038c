package endpoint

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestEndpoint(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "endpoint", Label("endpoint"))
}

// local is this run's DynamoDB Local's endpoint, "" when the label filter
// lets no spec that needs one run.
var local string

var _ = ddbtest.Local(func(_ SpecContext, db *dynamodb.Client) { local = *db.Options().BaseEndpoint },
	func() bool { return ddbtest.WillRun(Label("endpoint", "wire")) })
