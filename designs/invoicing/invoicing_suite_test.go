package invoicing_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestInvoicing(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "invoicing", Label(invoicing.Design.Label()))
}

var env = ddbtest.Setup(invoicing.Design)

var (
	table invoicing.Table // this process's own table, the patterns under test
	// quiet is the same table through the client straight to DynamoDB:
	// a spec's own setup in its body, and its reads of what a pattern
	// stored, never behind hostile verify's faults (nor counted as the
	// pattern's calls by its reach gate).
	quiet invoicing.Table
	fake  *fixtures.Invoicing
)

var _ = BeforeEach(func() {
	table = invoicing.Table{DB: env.Patterns, Name: env.Table}
	quiet = invoicing.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewInvoicing(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})

// stored reports whether the item at pk/sk exists.
func stored(ctx context.Context, pk, sk string) bool {
	GinkgoHelper()
	return env.Stored(ctx, invoicing.Schema.Key(pk, sk))
}

// TestMain runs ExampleTable_CreateClient, which calls DynamoDB, where the
// pattern specs would run.
func TestMain(m *testing.M) {
	ddbtest.Main(m, ddbtest.Needs(invoicing.Design), "ExampleTable_CreateClient")
}
