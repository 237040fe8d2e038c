package emulate

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestEmulate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "emulate", Label("emulate"))
}

// raw is a client of this run's DynamoDB Local, nil when the label filter
// lets no spec that needs one run.
var raw *dynamodb.Client

var _ = ddbtest.Local(func(_ SpecContext, db *dynamodb.Client) { raw = db }, func() bool { return ddbtest.WillRun(Label("emulate", "wire")) })
