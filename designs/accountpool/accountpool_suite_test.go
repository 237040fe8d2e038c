package accountpool_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestAccountpool(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "accountpool", Label(accountpool.Design.Label()))
}

var env = ddbtest.Setup(accountpool.Design)

var (
	table accountpool.Table // this process's own table, the patterns under test
	// quiet is the same table through the client straight to DynamoDB:
	// a spec's own setup in its body, and its reads of what a pattern
	// stored, never behind hostile verify's faults.
	quiet accountpool.Table
	fake  *fixtures.AccountPool
)

var _ = BeforeEach(func() {
	table = accountpool.Table{DB: env.Patterns, Name: env.Table}
	quiet = accountpool.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewAccountPool(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})
