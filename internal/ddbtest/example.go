package ddbtest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// ExampleStart bounds finding or starting the examples' DynamoDB Local,
// its install on a fresh machine included (about 2 s from npm), on a
// loaded machine.
const ExampleStart = 2 * time.Minute

// exampleDynamo is the DynamoDB the process's Examples call: started (or
// found) by the first that asks, stopped by Main.
var exampleDynamo struct {
	once sync.Once
	srv  *testbed.Server
	err  error
}

// ExampleDB is a client of the DynamoDB an Example calls. testing.M.Run
// runs Examples after the tests, so after RunSpecs, whose AfterSuite has
// stopped the suite's DynamoDB Local: the examples use the run's
// (DDBHARNESS_RUN_ENDPOINT, which make verify sets, or the user's
// AWS_ENDPOINT_URL_DYNAMODB) or, run alone, a DynamoDB Local of their own,
// started on first use and stopped by Main. The suite's TestMain must be
// Main.
func ExampleDB() (*dynamodb.Client, error) {
	exampleDynamo.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), ExampleStart)
		defer cancel()
		exampleDynamo.srv, exampleDynamo.err = testbed.Start(ctx)
	})
	if exampleDynamo.err != nil {
		return nil, fmt.Errorf("no DynamoDB for the examples: %w", exampleDynamo.err)
	}
	return testbed.Client(exampleDynamo.srv.Endpoint), nil
}

// Main is the TestMain of a suite whose examples (named, each calling
// ExampleDB) need DynamoDB. It runs them once a run, in Ginkgo's first
// parallel process (the others skip them), and only when the label filter
// lets a spec of needs run, as Local starts DynamoDB only then: make test's
// --label-filter=unit starts no JVM for them. A -skip the user gave is
// kept as it is. After the tests and examples it stops the DynamoDB Local
// they started, if any.
func Main(m *testing.M, needs []Labels, examples ...string) {
	flag.Parse()
	skip := flag.Lookup("test.skip")
	if s := examplesSkip(skip.Value.String(), GinkgoParallelProcess(), WillRun(needs...), examples); s != "" {
		if err := skip.Value.Set(s); err != nil {
			fmt.Fprintln(os.Stderr, "ddbtest:", err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if exampleDynamo.srv != nil {
		exampleDynamo.srv.Stop()
	}
	os.Exit(code)
}

// examplesSkip is the -skip pattern Main sets, given the user's and
// whether this process may run the examples: none when the user gave one
// or the examples run here, else one that skips exactly them.
func examplesSkip(given string, process int, specsNeedDynamo bool, examples []string) string {
	if given != "" || len(examples) == 0 || (process <= 1 && specsNeedDynamo) {
		return ""
	}
	quoted := make([]string, len(examples))
	for i, e := range examples {
		quoted[i] = regexp.QuoteMeta(e)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}
