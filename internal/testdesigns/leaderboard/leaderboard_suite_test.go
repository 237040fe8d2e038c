package leaderboard_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/ddbtest"
	// Hostile verify's fault rules, which every suite that sets up an env
	// takes part in; this one's specs call through env.DB, so they stay
	// quiet: the design is the harness's own, out of the catalog.
	_ "github.com/ddbharness/ddbharness/internal/hostile"
	"github.com/ddbharness/ddbharness/internal/testdesigns/leaderboard"
)

// TestLeaderboard runs the design's specs. The suite carries no design
// label: the design is out of the catalog, which the coverage gate
// measures.
func TestLeaderboard(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "leaderboard")
}

var env = ddbtest.Setup(leaderboard.Design)

var table leaderboard.Table // this process's own table

var _ = BeforeEach(func() { table = leaderboard.Table{DB: env.DB, Name: env.Table} })

var names atomic.Int64

// name is a player or game name no other spec of the run uses.
func name(kind string) string {
	return fmt.Sprintf("%s-%d-%d-%d", kind, GinkgoRandomSeed(), GinkgoParallelProcess(), names.Add(1))
}
