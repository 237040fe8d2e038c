package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// clientWait bounds a client's set-up (an npm install at most) and its
// script's whole run against the endpoint: the script stops each step at
// the answer it looks for, in seconds on an idle machine.
const clientWait = 3 * time.Minute

// sdkJS is the AWS SDK for JavaScript v3's DynamoDB client the JavaScript
// spec installs, pinned.
const sdkJS = "@aws-sdk/client-dynamodb@3.1169.0"

var endpointLine = regexp.MustCompile(`endpoint: (http://127\.0\.0\.1:\d+)\n`)

// clientRun is a client script's command line against the endpoint at
// url, on table.
type clientRun func(url, table string) (name string, args []string)

// boto3 runs the boto3 script, or fails saying what to install.
func boto3(ctx context.Context, script string) clientRun {
	if out, err := exec.CommandContext(ctx, "python3", "-c", "import boto3").CombinedOutput(); err != nil {
		Fail(fmt.Sprintf("this spec drives the endpoint with boto3, which python3 cannot import (%v: %s): install it (apt-get install python3-boto3) and run make faults again", err, out))
	}
	return func(url, table string) (string, []string) { return "python3", []string{script, url, table} }
}

// sdkForJS installs the AWS SDK for JavaScript v3's DynamoDB client once
// into the harness's cache folder, and runs the JavaScript script with
// it.
func sdkForJS(ctx context.Context, script string) clientRun {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			Fail(fmt.Sprintf("this spec drives the endpoint with the AWS SDK for JavaScript v3, which needs %s: install Node.js and npm (apt-get install nodejs npm) and run make faults again", tool))
		}
	}
	env, err := testbed.LoadEnv()
	Expect(err).NotTo(HaveOccurred())
	prefix := filepath.Join(env.CacheDir, "faults-sdk-js")
	if _, err := os.Stat(filepath.Join(prefix, "node_modules", "@aws-sdk", "client-dynamodb", "package.json")); err != nil {
		// Installed beside the cache folder and renamed into it whole: a
		// run killed mid-install, or another clone's run installing at the
		// same time, leaves no half-installed SDK for the next run to use.
		Expect(os.MkdirAll(env.CacheDir, 0o755)).To(Succeed())
		tmp, err := os.MkdirTemp(env.CacheDir, "faults-sdk-js-*")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, tmp)
		r := runtest.Command(ctx, "", nil, "npm", "install", "--prefix", tmp, "--ignore-scripts", "--no-audit", "--no-fund", sdkJS)
		Expect(r.Code).To(Equal(0), "npm install %s into %s (is the npm registry reachable?):\n%s", sdkJS, tmp, r.Output)
		if err := os.Rename(tmp, prefix); err != nil {
			// Another run got there first (its install is whole), or a run
			// of the older, in-place install left half of one.
			if _, statErr := os.Stat(filepath.Join(prefix, "node_modules", "@aws-sdk", "client-dynamodb", "package.json")); statErr != nil {
				Expect(os.RemoveAll(prefix)).To(Succeed())
				Expect(os.Rename(tmp, prefix)).To(Succeed(), "moving the installed SDK into %s", prefix)
			}
		}
	}
	return func(url, table string) (string, []string) {
		return "node", []string{"--no-warnings", script, url, table, prefix}
	}
}

// The clients share one local --limits (a JVM's start is most of each
// spec's time), each on tables of its own; the last spec ends it with
// Ctrl-C and checks what it says of their calls and its reports.
var _ = Describe("local --limits, for clients the harness did not write", Label("faults"), Ordered, SpecPriority(1), func() {
	var (
		r        *running
		url, out string
	)
	BeforeAll(func() {
		out = GinkgoT().TempDir()
		r = startBin(ownLocal(), "local", "--limits", "--limits-scale=0.01", "--report="+out)
		r.waitFor("endpoint: http://127.0.0.1:", 1, jvmWait)
		m := endpointLine.FindStringSubmatch(r.Output())
		Expect(m).NotTo(BeNil(), "no endpoint line:\n%s", r.Output())
		url = m[1]
	})

	DescribeTable("a hot key throttled with its reasons and retried by the client's own retryer, UnprocessedItems, and a transaction conflict",
		func(ctx SpecContext, client func(context.Context, string) clientRun, script, table string) {
			abs, err := filepath.Abs(filepath.Join("testdata", script))
			Expect(err).NotTo(HaveOccurred())
			cctx, cancel := context.WithTimeout(ctx, clientWait)
			defer cancel()
			run := client(cctx, abs)
			name, args := run(url, table)
			py := runtest.Command(cctx, GinkgoT().TempDir(), []string{"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull}, name, args...)
			Expect(py.Code).To(Equal(0), py.Output)
			var got struct {
				Throttled *struct {
					Code    string
					Reasons []struct{ Reason, Resource string }
					Retries int
				}
				Unprocessed int
				Conflict    *struct {
					Code    string
					Reasons []string
				}
			}
			Expect(json.Unmarshal([]byte(py.Output), &got)).To(Succeed(), py.Output)

			Expect(got.Throttled).NotTo(BeNil(), "the hot key was never refused")
			Expect(got.Throttled.Code).To(Equal("ThrottlingException"))
			Expect(got.Throttled.Reasons).To(HaveLen(1))
			Expect(got.Throttled.Reasons[0].Reason).To(Equal("TableReadKeyRangeThroughputExceeded"))
			Expect(got.Throttled.Reasons[0].Resource).To(Equal("arn:aws:dynamodb:ddblocal:000000000000:table/" + table))
			Expect(got.Throttled.Retries).To(BeNumerically(">=", 1), "the client's own retryer retried")
			Expect(got.Unprocessed).To(BeNumerically(">", 0), "a batch write came back with UnprocessedItems")
			Expect(got.Conflict).NotTo(BeNil(), "no transaction was cancelled for a conflict")
			Expect(got.Conflict.Code).To(Equal("TransactionCanceledException"))
			Expect(got.Conflict.Reasons).To(Equal([]string{"TransactionConflict"}))

			Expect(r.Output()).To(ContainSubstring(`hottest key "`+table+`/hot"`), "the line a second names the hot key")
		},
		Entry("boto3", boto3, "endpoint_boto3.py", "ddbh-boto3-faults", SpecTimeout(clientWait)),
		Entry("the AWS SDK for JavaScript v3", sdkForJS, "endpoint_js.cjs", "ddbh-js-faults", SpecTimeout(clientWait)))

	// A GSI keyed by two partition key attributes and two sort key
	// attributes, made by the client's own CreateTable: one tuple's
	// writes are throttled on the GSI, as DynamoDB throttles a base
	// table's write for its GSI's partition, naming the index.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html
	DescribeTable("a hot multi-attribute GSI key throttled naming the index, and a Query breaking the left-to-right rule refused by DynamoDB Local",
		func(ctx SpecContext, client func(context.Context, string) clientRun, script, table, left string) {
			abs, err := filepath.Abs(filepath.Join("testdata", script))
			Expect(err).NotTo(HaveOccurred())
			cctx, cancel := context.WithTimeout(ctx, clientWait)
			defer cancel()
			name, args := client(cctx, abs)(url, table)
			run := runtest.Command(cctx, GinkgoT().TempDir(), []string{"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull}, name, args...)
			Expect(run.Code).To(Equal(0), run.Output)
			var got struct {
				Throttled *struct {
					Code    string
					Reasons []struct{ Reason, Resource string }
					Retries int
				}
				Query *struct{ Code, Message string }
			}
			Expect(json.Unmarshal([]byte(run.Output), &got)).To(Succeed(), run.Output)

			Expect(got.Throttled).NotTo(BeNil(), "no write of the hot tuple was refused naming the GSI")
			Expect(got.Throttled.Code).To(Equal("ThrottlingException"))
			Expect(got.Throttled.Reasons).To(HaveLen(1))
			Expect(got.Throttled.Reasons[0].Reason).To(Equal("IndexWriteKeyRangeThroughputExceeded"))
			Expect(got.Throttled.Reasons[0].Resource).To(Equal("arn:aws:dynamodb:ddblocal:000000000000:table/" + table + "/index/ByTenantRegion"))
			Expect(got.Throttled.Retries).To(BeNumerically(">=", 1), "the client's own retryer retried")
			Expect(got.Query).NotTo(BeNil(), "the Query breaking the left-to-right rule was answered")
			Expect(got.Query.Code).To(Equal("ValidationException"))
			Expect(got.Query.Message).To(ContainSubstring(left), "the refusal names the key attribute the Query left out")
		},
		Entry("boto3, a Query without the first partition key attribute", boto3, "endpoint_tuple_boto3.py", "ddbh-boto3-tuple", "tenantId", SpecTimeout(clientWait)),
		Entry("the AWS SDK for JavaScript v3, a Query skipping the first sort key attribute", sdkForJS, "endpoint_tuple_js.cjs", "ddbh-js-tuple", "status", SpecTimeout(clientWait)))

	It("ends on Ctrl-C with 130, counting the throttled calls and conflicts; its reports name the hot key, and the hot tuple by both of its values", SpecTimeout(exitWait+atOnce), func(_ SpecContext) {
		Expect(r.Command.Process.Signal(os.Interrupt)).To(Succeed())
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitInterrupted), r.Output())
		Expect(r.Output()).To(MatchRegexp(`endpoint: [\d,]+ data-plane calls, [1-9][\d,]* throttled, [1-9][\d,]* transaction conflicts`))
		// Each table has a report of its own. Which key leads a hot-key
		// table's, the hot one or the transactions', and so sets the first
		// limit, depends on how the calls fell: the report names the hot
		// key either way, in its findings or its hot-key table.
		for _, table := range []string{"ddbh-boto3-faults", "ddbh-js-faults"} {
			Expect(tableReport(out, table)).To(MatchRegexp("key \"hot\"|key of the table is \"hot\"|`hot`"), "the report of %s after Ctrl-C names the hot key", table)
		}
		// A multi-attribute GSI's partition key value is named by both of
		// its attributes.
		for _, table := range []string{"ddbh-boto3-tuple", "ddbh-js-tuple"} {
			Expect(tableReport(out, table)).To(ContainSubstring("tenantId=t1, region=eu"), "the report of %s after Ctrl-C names the hot tuple by both of its values", table)
		}
	})
})

// tableReport is the summary of the report local --limits wrote under
// root for table, which must be one.
func tableReport(root, table string) string {
	GinkgoHelper()
	dirs, err := filepath.Glob(filepath.Join(root, "*-"+table+"-endpoint"))
	Expect(err).NotTo(HaveOccurred())
	Expect(dirs).To(HaveLen(1), "one report folder for table %s under %s", table, root)
	b, err := os.ReadFile(filepath.Join(dirs[0], report.SummaryFile))
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}
