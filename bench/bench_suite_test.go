package bench_test

import (
	"cmp"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
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

// resultsTo has a run write its calls to a file of the spec's own, and
// returns the option and the file's path.
func resultsTo() (engine.Option, string) {
	path := filepath.Join(GinkgoT().TempDir(), "results.bin")
	return engine.ResultsTo(path), path
}

// readCalls reads a results file back, in order of intended time.
func readCalls(path string) vegeta.Results {
	var rs vegeta.Results
	Expect(engine.ReadResults(path, func(r *vegeta.Result) error { rs = append(rs, *r); return nil })).To(Succeed())
	slices.SortFunc(rs, func(a, b vegeta.Result) int {
		return cmp.Or(a.Timestamp.Compare(b.Timestamp), cmp.Compare(a.Seq, b.Seq))
	})
	return rs
}

// TestMain runs ExampleRun, which calls DynamoDB, where the specs that
// need it would run.
func TestMain(m *testing.M) { ddbtest.Main(m, []Labels{Label("bench", "engine")}, "ExampleRun") }
