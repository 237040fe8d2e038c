package invoicing_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func TestInvoicing(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "invoicing", Label(invoicing.Design.Label()))
}

var env = ddbtest.Setup(invoicing.Design)

var (
	table invoicing.Table // this process's own table
	fake  *fixtures.Invoicing
)

var _ = BeforeEach(func() {
	table = invoicing.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewInvoicing(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})

// stored reports whether the item at pk/sk exists, read consistently from
// the table itself rather than through any pattern.
func stored(ctx context.Context, pk, sk string) bool {
	out, err := env.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(env.Table),
		Key:            invoicing.Schema.Key(pk, sk),
		ConsistentRead: aws.Bool(true),
	})
	Expect(err).NotTo(HaveOccurred())
	return out.Item != nil
}
