package faults_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/internal/testnet"
)

// The remote flow, proven against a DynamoDB Local this suite starts on
// loopback and reaches through a relay on one of the machine's other
// addresses: to the harness it is a remote endpoint like real DynamoDB's,
// with the opt-in, credentials and cost gate that needs; table creation
// reads CREATING for a while, as the throughput emulator plays it.
var _ = Describe("bench on a remote endpoint", Ordered, SpecPriority(2), Label("faults"), func() {
	var (
		local  *dynamodb.Client // straight to DynamoDB Local
		relay  *testnet.Forwarder
		remote []string // the environment of a run on the remote endpoint
		out    string
	)
	const other = "orders-prod" // a table that is not the harness's
	// scenario seeds little (200 clients), so the flow is quick to prove.
	const scenario = "invoicing/big-client"

	BeforeAll(func(ctx SpecContext) {
		ip := testnet.OutsideIPv4()
		Expect(ip).NotTo(BeEmpty(), "this machine has no IPv4 address but loopback: the remote flow needs one to reach DynamoDB Local as a remote endpoint")
		srv, err := testbed.Start(ctx, testbed.Log(GinkgoWriter), testbed.FromEnv(testbed.Env{CacheDir: cacheDir()}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		u, err := url.Parse(srv.Endpoint)
		Expect(err).NotTo(HaveOccurred())
		relay = testnet.Forward(ip, u.Host)
		local = testbed.Client(srv.Endpoint)
		remote = []string{testbed.EnvEndpoint + "=http://" + relay.Addr, testbed.EnvRunEndpoint + "=", testbed.EnvAllowRemote + "=1",
			"AWS_ACCESS_KEY_ID=ddbharness", "AWS_SECRET_ACCESS_KEY=ddbharness", "AWS_SESSION_TOKEN=", "AWS_REGION=us-east-1",
			"AWS_PROFILE=", "AWS_EC2_METADATA_DISABLED=true", "MAX_COST="}
		out = GinkgoT().TempDir()

		Expect(designs.CreateTable(ctx, local, designs.Schema{PK: "PK"}, other)).To(Succeed())
		_, err = local.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(other),
			Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "order#1"}}})
		Expect(err).NotTo(HaveOccurred())
	})

	// tables lists DynamoDB Local's tables.
	tables := func(ctx context.Context) []string {
		GinkgoHelper()
		l, err := local.ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())
		return l.TableNames
	}
	// expectClean checks no ddbh-* table is left and the other table is
	// whole.
	expectClean := func(ctx context.Context) {
		GinkgoHelper()
		Eventually(func() []string {
			return slices.DeleteFunc(tables(ctx), func(n string) bool { return !strings.HasPrefix(n, designs.TablePrefix) })
		}).WithTimeout(exitWait).Should(BeEmpty())
		got, err := local.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(other),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "order#1"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Item).NotTo(BeEmpty(), "the harness touched %s", other)
	}

	It("refuses a run above MAX_COST before it creates anything, with exit 2", func(ctx SpecContext) {
		before := tables(ctx)
		r := runtest.Command(ctx, repoRoot, append(remote, "MAX_COST=0.0000001"), bin, "bench", "--out", out, "--duration", "2s", scenario)
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(And(ContainSubstring("what this run will cost"), ContainSubstring("above the limit of $0.00"), ContainSubstring("MAX_COST=")))
		Expect(tables(ctx)).To(Equal(before))
	})

	It("creates the table and waits for it and its GSIs, seeds, runs, reports the service's figures and deletes it", func(ctx SpecContext) {
		r := runtest.Command(ctx, repoRoot, remote, bin, "bench", "--out", out, "--duration", "2s", scenario)
		Expect(r.Code).To(Equal(exitOK), r.Output)
		Expect(r.Output).To(And(ContainSubstring("what this run will cost"), ContainSubstring("within the limit of $1.00"),
			MatchRegexp(`waiting for ddbh-invoicing-bench-\d+: table CREATING, GSI1 CREATING`), MatchRegexp(`table ACTIVE, GSI1 ACTIVE \([1-9]`)))
		summary := latestReport(out, report.SummaryFile)
		Expect(summary).To(And(ContainSubstring("Calls answered by the DynamoDB at http://"+relay.Addr), ContainSubstring("against AWS's rules"),
			ContainSubstring("## Throttling, as the service answered")))
		expectClean(ctx)
	})

	It("never shows the endpoint's user name or password, on screen or in the report", func(ctx SpecContext) {
		withSecret := append(slices.Clone(remote), testbed.EnvEndpoint+"=http://runner:s3cr3t-pw@"+relay.Addr)
		r := runtest.Command(ctx, repoRoot, withSecret, bin, "bench", "--out", out, "--duration", "2s", scenario)
		Expect(r.Code).To(Equal(exitOK), r.Output)
		Expect(r.Output).To(ContainSubstring("http://***@" + relay.Addr))
		summary := latestReport(out, report.SummaryFile)
		Expect(summary).To(ContainSubstring("Calls answered by the DynamoDB at http://***@" + relay.Addr))
		t := runtest.Command(ctx, repoRoot, withSecret, bin, "tables")
		Expect(t.Code).To(Equal(exitOK), t.Output)
		for _, shown := range []string{r.Output, summary, latestReport(out, report.MetricsFile), t.Output} {
			Expect(shown).NotTo(Or(ContainSubstring("s3cr3t-pw"), ContainSubstring("runner")))
		}
		expectClean(ctx)
	})

	It("deletes the table on Ctrl-C", func(ctx SpecContext) {
		r := startBin(remote, "bench", "--out", out, "--duration", "60s", scenario)
		r.waitFor(scenario+"     1s", 1, time.Minute)
		Expect(r.Command.Process.Signal(syscall.SIGINT)).To(Succeed())
		code, _ := r.waitExit(time.Minute)
		Expect(code).To(Equal(exitInterrupted), r.Output())
		expectClean(ctx)
	})

	It("deletes the table when the test bed fails mid-run, once the endpoint answers again", func(ctx SpecContext) {
		r := startBin(remote, "bench", "--out", out, "--duration", "60s", scenario)
		r.waitFor(scenario+"     1s", 1, time.Minute)
		relay.Pause()
		r.waitFor("not deleted yet", 1, time.Minute) // the run failed, and its cleanup met the dead endpoint
		relay.Resume()
		code, _ := r.waitExit(2 * time.Minute)
		Expect(code).To(Equal(exitTestBed), r.Output())
		Expect(r.Output()).NotTo(ContainSubstring("not deleted:"), "the cleanup gave up")
		expectClean(ctx)
	})

	It("keeps the table when asked and says how to delete it; tables -delete deletes only the harness's", func(ctx SpecContext) {
		r := runtest.Command(ctx, repoRoot, remote, bin, "bench", "--out", out, "--duration", "2s", "--keep-table", scenario)
		Expect(r.Code).To(Equal(exitOK), r.Output)
		Expect(r.Output).To(MatchRegexp(`kept table (ddbh-invoicing-bench-\d+) for inspection; delete it with: ddbharness tables -delete`))
		Expect(tables(ctx)).To(ContainElement(HavePrefix("ddbh-invoicing-bench-")))

		d := runtest.Command(ctx, repoRoot, remote, bin, "tables", "-delete")
		Expect(d.Code).To(Equal(exitOK), d.Output)
		Expect(d.Output).To(MatchRegexp(`deleted 1 of 1 ddbh-\* table`))
		expectClean(ctx)
	})
})

// cacheDir is where the suite's DynamoDB Local is installed: the user's.
func cacheDir() string {
	env, err := testbed.LoadEnv()
	Expect(err).NotTo(HaveOccurred())
	return env.CacheDir
}
