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
	table accountpool.Table // this process's own table
	fake  *fixtures.AccountPool
)

var _ = BeforeEach(func() {
	table = accountpool.Table{DB: env.Patterns, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewAccountPool(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})
