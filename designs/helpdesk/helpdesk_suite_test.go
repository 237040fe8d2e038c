package helpdesk_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/helpdesk"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestHelpdesk(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "helpdesk", Label(helpdesk.Design.Label()))
}

// env is this process's DynamoDB clients and table: one DynamoDB Local for
// the run, one table per parallel process, deleted when the suite ends; the
// patterns get env.Patterns, which hostile verify puts behind its fault
// rules.
var env = ddbtest.Setup(helpdesk.Design)

var (
	table helpdesk.Table // this process's own table
	// quiet is the same table for a spec's setup and for reading back what a
	// pattern stored: never behind hostile verify's fault rules, so that only
	// the pattern a spec proves meets them.
	quiet helpdesk.Table
	fake  *fixtures.Helpdesk
)

var _ = BeforeEach(func() {
	table = helpdesk.Table{DB: env.Patterns, Name: env.Table}
	quiet = helpdesk.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys never repeat within its table
		fake = fixtures.NewHelpdesk(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})
