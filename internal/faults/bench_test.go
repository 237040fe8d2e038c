package faults_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// javaUnder returns the java processes descending from pid (DynamoDB Local's
// JVM is a child of the command), read from /proc.
func javaUnder(pid int) []int {
	procs := runtest.Procs()
	var found []int
	for _, p := range procs {
		if p.Comm == "java" && runtest.Descends(procs, p, pid) {
			found = append(found, p.PID)
		}
	}
	return found
}

// latestReport reads a file of the newest report under root.
func latestReport(root, name string) string {
	GinkgoHelper()
	dir, err := report.Latest(root)
	Expect(err).NotTo(HaveOccurred(), "no report under %s", root)
	b, err := os.ReadFile(filepath.Join(dir, name))
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// resultsBefore counts the calls in the latest report's results.bin sent
// before cut.
func resultsBefore(root string, cut time.Time) int64 {
	GinkgoHelper()
	dir, err := report.Latest(root)
	Expect(err).NotTo(HaveOccurred(), "no report under %s", root)
	var n int64
	Expect(engine.ReadResults(filepath.Join(dir, report.ResultsFile), func(r *vegeta.Result) error {
		if r.Timestamp.Before(cut) {
			n++
		}
		return nil
	})).To(Succeed())
	return n
}

func latestMetrics(root string) map[string]any {
	GinkgoHelper()
	var m map[string]any
	Expect(json.Unmarshal([]byte(latestReport(root, report.MetricsFile)), &m)).To(Succeed())
	return m
}

var _ = Describe("bench flags out of range", Label("faults"), func() {
	// Each is refused before anything starts: exit 2 at once, the valid
	// range in the message, no DynamoDB Local started.
	DescribeTable("refuses the value, says what is allowed, starts nothing",
		func(ctx SpecContext, want string, args ...string) {
			r := runtest.Command(ctx, GinkgoT().TempDir(), ownLocal(), bin, args...)
			Expect(r.Code).To(Equal(exitBadInput), "%v", args)
			Expect(r.Output).To(ContainSubstring(want))
			Expect(r.Elapsed).To(BeNumerically("<", atOnce), "refused before anything starts")
			Expect(r.Output).NotTo(ContainSubstring("DynamoDB at"), "no DynamoDB Local started")
		},
		Entry("DURATION=-5s", "want a duration above 0", "bench", "--duration=-5s", "invoicing/month-end"),
		Entry("DURATION=0", "want a duration above 0", "bench", "--duration=0", "invoicing/month-end"),
		Entry("a day and more", "at most 24h", "bench", "--duration=25h", "invoicing/month-end"),
		Entry("DURATION=garbage", `invalid value "garbage" for flag -duration`, "bench", "--duration=garbage"),
		Entry("TARGET_RATE=-1", "want a finite number of requests per second, 0 or more", "bench", "--target-rate=-1", "invoicing/month-end"),
		Entry("TARGET_RATE=NaN", "want a finite number of requests per second, 0 or more", "bench", "--target-rate=NaN", "invoicing/month-end"),
		Entry("TARGET_RATE=Inf", "want a finite number of requests per second, 0 or more", "bench", "--target-rate=Inf", "invoicing/month-end"),
		Entry("TARGET_RATE=-Inf", "want a finite number of requests per second, 0 or more", "bench", "--target-rate=-Inf", "invoicing/month-end"),
		Entry("TARGET_RATE=garbage", `invalid value "garbage" for flag -target-rate`, "bench", "--target-rate=garbage"),
		Entry("LIMITS=maybe", `"maybe" for -limits: want on or off (LIMITS=on or LIMITS=off)`, "bench", "--limits=maybe", "invoicing/month-end"),
		Entry("LIMITS_SCALE=0", "want a factor above 0 and at most 1000", "bench", "--limits-scale=0", "invoicing/month-end"),
		Entry("LIMITS_SCALE=-0.5", "want a factor above 0 and at most 1000", "bench", "--limits-scale=-0.5", "invoicing/month-end"),
		Entry("LIMITS_SCALE=NaN", "want a factor above 0 and at most 1000", "bench", "--limits-scale=NaN", "invoicing/month-end"),
		Entry("RATE=-1", "want requests per second from 1 to 1000000", "bench", "--rate=-1", "invoicing/month-end"),
		Entry("POOL=-1", "want a number of entities from 1 to 10000000", "bench", "--pool=-1", "invoicing/month-end"),
		Entry("POOL=99999999999", "want a number of entities from 1 to 10000000", "bench", "--pool=99999999999", "invoicing/month-end"),
		Entry("RATE=0.3", "want requests per second from 1 to 1000000", "bench", "--rate=0.3", "invoicing/month-end"),
		Entry("RATE=1e19, which the pacer cannot represent", "want requests per second from 1 to 1000000", "bench", "--rate=1e19", "invoicing/month-end"),
		Entry("RATE=5000000000, a call less than a nanosecond apart", "want requests per second from 1 to 1000000", "bench", "--rate=5000000000", "invoicing/month-end"),
		Entry("a pace whose first call is due at the window's end", "makes no call in the measured window (the first is due one interval in): nothing would be measured", "bench", "--rate=1", "--duration=1s", "invoicing/month-end"),
		Entry("a shard's share of the pace, no call", "makes no call for shard 3 of 3 in the measured window", "bench", "--rate=1", "--duration=2s", "--shard=3/3", "--run=x", "invoicing/month-end"),
		Entry("START years ahead", "want an instant within 24h of now", "bench", "--start=9999-12-31T23:59:59Z", "--shard=2/2", "--run=x", "invoicing/month-end"),
		Entry("START at the zero time", "want an instant within 24h of now", "bench", "--start=0001-01-01T00:00:00Z", "--shard=2/2", "--run=x", "invoicing/month-end"),
		Entry("a report folder that cannot be made", "cannot make the folder", "bench", "--out=/proc/ddbharness-reports", "invoicing/month-end"),
		Entry("100,000 shards", "want I/N with 1 ≤ I ≤ N ≤ 1000", "bench", "--shard=1/100000", "--run=x", "invoicing/month-end"),
		Entry("a negative SHARD_WAIT", "want a duration from 0", "bench", "--shard-wait=-1s", "invoicing/month-end"),
		Entry("a 300-character run name", "want 1 to 40 lower-case letters, digits and dashes", "bench", "--shard=1/2", "--run="+strings.Repeat("a", 300), "invoicing/month-end"),
		Entry("an empty report folder", "--out is empty", "bench", "--out=", "invoicing/month-end"),
		Entry("an unknown scenario", `no scenario or design "invoicing/nope": pick one of`, "bench", "invoicing/nope"),
		Entry("an unknown flag", "flag provided but not defined: -bogus", "bench", "--bogus"),
		Entry("lint --pool=0", "want 2 to 100000 entities", "lint", "--pool=0"),
		Entry("lint --pool=-3", "want 2 to 100000 entities", "lint", "--pool=-3"),
		Entry("lint of an unknown design", `no design "nope": pick one of`, "lint", "nope"),
		Entry("tables --older-than=-1s", "want a duration of 0 or more", "tables", "--older-than=-1s"),
		Entry("tables without an endpoint", "AWS_ENDPOINT_URL_DYNAMODB is not set", "tables"),
	)

	It("refuses a report folder that is a file, before anything starts", func(ctx SpecContext) {
		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "reports")
		Expect(os.WriteFile(file, []byte("not a folder"), 0o644)).To(Succeed())
		r := runtest.Command(ctx, dir, ownLocal(), bin, "bench", "--out="+file, "invoicing/month-end")
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(ContainSubstring("is a file, not a folder"))
		Expect(r.Elapsed).To(BeNumerically("<", atOnce))
		Expect(r.Output).NotTo(ContainSubstring("DynamoDB at"), "no DynamoDB Local started, nothing seeded")
	})

	It("refuses to list tables off this machine without the opt-in, before any call", func(ctx SpecContext) {
		env := []string{testbed.EnvEndpoint + "=http://192.0.2.1:8000", testbed.EnvAllowRemote + "="}
		r := runtest.Command(ctx, GinkgoT().TempDir(), env, bin, "tables", "--delete")
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(ContainSubstring(testbed.EnvAllowRemote + "=1"))
		Expect(r.Elapsed).To(BeNumerically("<", atOnce), "192.0.2.1 never answers: no call was made")
	})
})

var _ = Describe("help", Label("faults"), func() {
	DescribeTable("exits 0 with the usage",
		func(ctx SpecContext, want string, args ...string) {
			r := runtest.Command(ctx, GinkgoT().TempDir(), nil, bin, args...)
			Expect(r.Code).To(Equal(exitOK), "%v", args)
			Expect(r.Output).To(ContainSubstring(want))
		},
		Entry("help", "usage: ddbharness <command>", "help"),
		Entry("--help", "usage: ddbharness <command>", "--help"),
		Entry("bench -h", "usage: ddbharness bench", "bench", "-h"),
		Entry("bench --help", "usage: ddbharness bench", "bench", "--help"),
		Entry("lint -h", "usage: ddbharness lint", "lint", "-h"),
		Entry("tables -h", "usage: ddbharness tables", "tables", "-h"),
		Entry("catalog -h, a command without flags", "usage: ddbharness catalog", "catalog", "-h"),
		Entry("coverage -h", "usage: ddbharness coverage REPORT.json", "coverage", "-h"),
		Entry("report -h, a command with a subcommand", "usage: ddbharness report merge", "report", "-h"),
		Entry("verify -h: ginkgo's flags, with the command's own usage line", "usage: ddbharness verify [ginkgo run flags]", "verify", "-h"),
	)
})

var _ = Describe("bench when DynamoDB Local dies mid-run", Label("faults"), func() {
	It("stops within seconds, exits 3, writes a report marked failed with the cause, and leaves no JVM", func() {
		out := GinkgoT().TempDir()
		// big-client seeds 200 clients, month-end 1,500: the spec needs only calls.
		r := startBin(ownLocal(), "bench", "--duration=30s", "--out="+out, "invoicing/big-client")
		// Progress prints a line a second while measuring: the third means
		// about three seconds in.
		r.waitFor("p50 ", 3, 2*time.Minute)
		jvms := javaUnder(r.Command.Process.Pid)
		Expect(jvms).To(HaveLen(1), "DynamoDB Local's JVM under the bench process")
		Expect(syscall.Kill(jvms[0], syscall.SIGKILL)).To(Succeed())
		killed := time.Now()

		code, ended := r.waitExit(exitWait)
		Expect(ended.Sub(killed)).To(BeNumerically("<", atOnce), "the run stops promptly, not when its 30 s would end")
		Expect(code).To(Equal(exitTestBed), "exit code of a failed test bed")
		Expect(r.Output()).To(ContainSubstring("FAILED: the test bed failed"))

		summary := latestReport(out, report.SummaryFile)
		Expect(strings.SplitN(summary, "\n", 4)[2]).To(HavePrefix("**FAILED: the test bed failed "), "summary.md opens with the failure")
		Expect(summary).To(ContainSubstring("signal: killed"), "the cause")
		Expect(summary).To(ContainSubstring("into measuring"), "when")
		Expect(summary).NotTo(ContainSubstring("ran for 30s"))
		m := latestMetrics(out)
		Expect(m["state"]).To(Equal(report.StateFailed))
		Expect(m["failure"]).To(HaveKeyWithValue("reason", ContainSubstring("signal: killed")))
		Eventually(func() bool {
			return slices.ContainsFunc(runtest.Procs(), func(p runtest.Proc) bool { return p.PID == jvms[0] })
		}).WithTimeout(jvmWait).Should(BeFalse(), "the JVM is gone")

		By("modelling capacity on the calls before the failure only")
		var run struct {
			Started  time.Time     `json:"started"`
			Elapsed  time.Duration `json:"elapsed"`
			Covers   time.Duration `json:"capacity_covers"`
			Failure  struct{ At time.Duration }
			Capacity struct{ Requests int64 }
		}
		Expect(json.Unmarshal([]byte(latestReport(out, report.MetricsFile)), &run)).To(Succeed())
		Expect(run.Failure.At).To(BeNumerically(">", 0))
		Expect(run.Elapsed-run.Failure.At).To(BeNumerically("<", atOnce), "stopping waits for no drain")
		Expect(run.Covers).To(Equal(run.Failure.At))
		before := resultsBefore(out, run.Started.Add(run.Failure.At))
		Expect(before).To(BeNumerically(">", 0))
		Expect(run.Capacity.Requests).To(Equal(before))
	})
})

var _ = Describe("bench at a rate with a fraction", Label("faults"), func() {
	It("paces it exactly and gives the headline's full throttling form when nothing was throttled", func(ctx SpecContext) {
		dir := GinkgoT().TempDir()
		bounded, cancel := context.WithTimeout(ctx, 3*exitWait)
		defer cancel()
		r := runtest.Command(bounded, dir, given(shared(ctx)), bin, "bench", "--rate=2.5", "--duration=4s", "--out="+filepath.Join(dir, "reports"), "invoicing/big-client")
		Expect(r.Code).To(Equal(exitOK))
		m := latestMetrics(filepath.Join(dir, "reports"))
		// 2.5 requests/s for 4 s is 10 calls (the pacer's last may fall at the
		// end); 3/s, as the rate was once rounded, would be 11 or 12.
		Expect(m["total"].(map[string]any)["requests"]).To(BeNumerically("~", 9.5, 0.5), "2.5 requests/s for 4 s, not 3/s")
		Expect(r.Output).To(MatchRegexp(`limits scale 1: 0 of \d+ pattern calls \(0\.0%\) throttled, 0 SDK retries`))
	})
})

var _ = Describe("bench whose report folder holds a latest that is a folder", Label("faults"), func() {
	It("leaves it, says so, names the run in LATEST and leaves no temporary link", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		Expect(os.Mkdir(filepath.Join(out, "latest"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(out, "latest", "notes.txt"), []byte("mine"), 0o644)).To(Succeed())
		bounded, cancel := context.WithTimeout(ctx, 3*exitWait)
		defer cancel()
		r := runtest.Command(bounded, out, given(shared(ctx)), bin, "bench", "--duration=2s", "--limits=off", "--out="+out, "invoicing/big-client")
		Expect(r.Code).To(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("latest is a folder, not the link this command keeps"))
		Expect(filepath.Join(out, ".latest.tmp")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(out, "latest", "notes.txt")).To(BeAnExistingFile(), "the user's folder is left as it was")
		Expect(latestReport(out, report.SummaryFile)).To(ContainSubstring("invoicing/big-client"))
	})
})

var _ = Describe("a shard whose shard 1 never comes", Label("faults"), func() {
	It("waits no longer than the run's window, then exits 3 naming what it waited for, and leaves no signal table", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		endpoint := shared(ctx)
		env := given(endpoint)
		start := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339)
		r := startBin(env, "bench", "--shard=2/2", "--run=lonely", "--start="+start, "--duration=2s", "--limits=off", "--out="+out, "invoicing/big-client")
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitTestBed), r.Output())
		Expect(r.Output()).To(ContainSubstring(`shard 1 of run "lonely" did not create and seed ddbh-invoicing-lonely`))

		// Without START, --shard-wait bounds the wait.
		w := startBin(env, "bench", "--shard=2/2", "--run=lonely", "--shard-wait=3s", "--duration=2s", "--limits=off", "--out="+out, "invoicing/big-client")
		code, _ = w.waitExit(exitWait)
		Expect(code).To(Equal(exitTestBed), w.Output())
		Expect(w.Output()).To(ContainSubstring("(--shard-wait=3s)"))
		l, err := testbed.Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())
		Expect(l.TableNames).NotTo(ContainElement(HavePrefix("ddbh-invoicing-lonely")), "no done signal left behind")
	})
})

var _ = Describe("a second shard 1 of one run", Label("faults"), func() {
	It("is refused, exit 2, saying another shard 1 holds the run, and leaves the table alone", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		endpoint := shared(ctx)
		db := testbed.Client(endpoint)
		const table = "ddbh-invoicing-dup"
		Expect(designs.CreateTable(ctx, db, invoicing.Design.Schema, table)).To(Succeed()) // the first shard 1's
		env := given(endpoint)
		r := runtest.Command(ctx, out, env, bin, "bench", "--shard=1/2", "--run=dup", "--duration=2s", "--limits=off", "--out="+out, "invoicing/big-client")
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(ContainSubstring(`another shard 1 of run "dup" holds it`))
		Expect(r.Output).NotTo(ContainSubstring("Cannot create preexisting table"))
		_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		Expect(err).NotTo(HaveOccurred(), "the other run's table is still there")
	})
})

// startShards starts shards 1/2 and 2/2 of run, invoicing/big-client with
// the limits off, both measuring for d from 15 s from now (shard 1 seeds
// meanwhile). Shard 2 waits up to 2 minutes for shard 1's seed, not the
// run's window, which a loaded machine's seeding can outlast.
func startShards(env []string, out, run string, d time.Duration) []*running {
	GinkgoHelper()
	start := time.Now().Add(15 * time.Second).UTC().Format(time.RFC3339)
	var shards []*running
	for _, s := range []string{"1/2", "2/2"} {
		shards = append(shards, startBin(env, "bench", "--shard="+s, "--run="+run, "--start="+start, "--shard-wait=2m", "--duration="+d.String(), "--limits=off", "--out="+out, "invoicing/big-client"))
	}
	return shards
}

var _ = Describe("a run whose name an earlier run left a done signal under", Label("faults"), SpecPriority(1), func() {
	It("clears the stale signal first, so shard 1 waits for the real one and both shards end well", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		endpoint := shared(ctx)
		Expect(designs.CreateTable(ctx, testbed.Client(endpoint), designs.Schema{PK: "PK"}, "ddbh-invoicing-stale-done2")).To(Succeed())
		env := given(endpoint)
		shards := startShards(env, out, "stale", 3*time.Second)
		for _, s := range shards {
			code, _ := s.waitExit(2 * time.Minute)
			Expect(code).To(Equal(exitOK), s.Output())
		}
		Expect(shards[0].Output()).To(ContainSubstring("deleted ddbh-invoicing-stale-done2, a signal an earlier run of this name left"))
		Expect(shards[1].Output()).NotTo(ContainSubstring("table is gone"))
	})
})

var _ = Describe("shard 1 stopped while another shard runs", Label("faults"), SpecPriority(1), func() {
	It("leaves the table to it, and the last shard to end deletes it and every signal", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		endpoint := shared(ctx)
		env := given(endpoint)
		shards := startShards(env, out, "abandon", 8*time.Second)
		shards[1].waitFor("p50 ", 2, 2*time.Minute) // shard 2 measuring
		Expect(shards[0].Command.Process.Signal(syscall.SIGTERM)).To(Succeed())
		code, _ := shards[0].waitExit(exitWait)
		Expect(code).To(Equal(exitInterrupted), shards[0].Output())
		Expect(shards[0].Output()).To(ContainSubstring("left ddbh-invoicing-abandon to shard(s) [2], still running"))
		code, _ = shards[1].waitExit(2 * time.Minute)
		Expect(code).To(Equal(exitOK), shards[1].Output())
		Expect(shards[1].Output()).NotTo(ContainSubstring("table is gone"))
		Expect(shards[1].Output()).To(ContainSubstring("the last shard to end: deleted ddbh-invoicing-abandon"))
		l, err := testbed.Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())
		Expect(l.TableNames).NotTo(ContainElement(HavePrefix("ddbh-invoicing-abandon")))
	})
})

var _ = Describe("bench whose table is deleted under it", Label("faults"), SpecPriority(1), func() {
	It("stops as the test bed failing, exit 3, and says the table is gone", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		endpoint := shared(ctx)
		env := given(endpoint)
		r := startBin(env, "bench", "--duration=20s", "--limits=off", "--out="+out, "invoicing/big-client")
		r.waitFor("p50 ", 1, 2*time.Minute) // measuring
		d := runtest.Command(ctx, out, env, bin, "tables", "-delete")
		Expect(d.Code).To(Equal(exitOK), d.Output)
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitTestBed), r.Output())
		Expect(r.Output()).To(ContainSubstring("the run's table is gone (ResourceNotFoundException)"))
		Expect(latestMetrics(out)).To(HaveKeyWithValue("state", report.StateFailed))
	})
})

var _ = Describe("bench interrupted", Label("faults"), func() {
	It("a few seconds into measuring, says how much of the run ran", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		r := startBin(given(shared(ctx)), "bench", "--duration=20s", "--out="+out, "invoicing/big-client")
		r.waitFor("p50 ", 3, 2*time.Minute) // about three seconds into measuring
		Expect(r.Command.Process.Signal(os.Interrupt)).To(Succeed())
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitInterrupted))
		Expect(r.Output()).To(MatchRegexp(`interrupted: ran \d+\.\d s of the 20s asked for`), "the headline")

		summary := latestReport(out, report.SummaryFile)
		Expect(summary).To(MatchRegexp(`ran \d+\.\d s of the 20s asked for, interrupted`))
		Expect(summary).NotTo(ContainSubstring("ran for 20s"))
		m := latestMetrics(out)
		Expect(m).To(HaveKeyWithValue("state", report.StateInterrupted))
		Expect(m).To(HaveKeyWithValue("stopped_while", report.PhaseMeasuring))
		Expect(latestReport(out, report.PlotFile)).To(MatchRegexp(`invoicing/big-client \(interrupted at \d+\.\d s of 20s\)`))
	})

	It("while seeding, says so and shows no error rate and no zero date", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		r := startBin(given(shared(ctx)), "bench", "--out="+out, "shop/browse") // a pool of 2000 to seed
		r.waitFor("shop/browse: seeding ", 1, 2*time.Minute)
		Expect(r.Command.Process.Signal(os.Interrupt)).To(Succeed())
		code, _ := r.waitExit(exitWait)
		Expect(r.Output()).NotTo(ContainSubstring("warming up"), "seeding ended before the interrupt: the spec needs a bigger pool")
		Expect(code).To(Equal(exitInterrupted))
		Expect(r.Output()).To(ContainSubstring("interrupted while seeding, before measuring: nothing measured"))

		summary := latestReport(out, report.SummaryFile)
		Expect(summary).To(ContainSubstring("**Interrupted while seeding**, before measuring"))
		for _, wrong := range []string{"0001-01-01", "% errors", "100.0%", "Success", "ran for"} {
			Expect(summary).NotTo(ContainSubstring(wrong))
		}
		m := latestMetrics(out)
		Expect(m).To(HaveKeyWithValue("stopped_while", report.PhaseSeeding))
		Expect(m["started"]).To(BeNil())
		Expect(m["total"]).To(BeNil())
	})
})

var _ = Describe("leftover tables", Label("faults"), func() {
	It("tables lists the ddbh-* tables, and tables --delete removes only those", func(ctx SpecContext) {
		env, err := testbed.LoadEnv()
		Expect(err).NotTo(HaveOccurred())
		srv, err := testbed.Start(ctx, testbed.FromEnv(testbed.Env{CacheDir: env.CacheDir}), testbed.Log(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		db := testbed.Client(srv.Endpoint)
		ours, theirs := "ddbh-shop-bench-1", "orders"
		for _, name := range []string{ours, theirs} {
			_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String(name),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
				BillingMode:          types.BillingModePayPerRequest,
			})
			Expect(err).NotTo(HaveOccurred())
		}
		at := []string{testbed.EnvEndpoint + "=" + srv.Endpoint}

		r := runtest.Command(ctx, GinkgoT().TempDir(), at, bin, "tables")
		Expect(r.Code).To(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring(ours))
		Expect(r.Output).NotTo(ContainSubstring(theirs))
		Expect(r.Output).To(ContainSubstring("1 ddbh-* table(s)"))

		r = runtest.Command(ctx, GinkgoT().TempDir(), at, bin, "tables", "--delete")
		Expect(r.Code).To(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("deleted " + ours))
		list, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())
		Expect(list.TableNames).To(ConsistOf(theirs), "only the ddbh-* table is gone")

		r = runtest.Command(ctx, GinkgoT().TempDir(), at, bin, "tables")
		Expect(r.Code).To(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("no ddbh-* table on " + srv.Endpoint))
	})
})

var _ = Describe("bench with an abort threshold breached while it runs", Label("faults"), func() {
	It("ends the window at that progress line, writes the report, runs no further scenario and exits 99", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		bounded, cancel := context.WithTimeout(ctx, 5*time.Minute) // the drain spec's bound: a loaded machine's JVM start and seeding
		defer cancel()
		// No call ends in under a nanosecond: the first progress line breaks
		// the threshold, a minute before the window would end.
		r := runtest.Command(bounded, out, given(shared(ctx)), bin, "bench", "--duration=1m", "--limits=off", "--out="+out,
			"--threshold", "p99 < 1ns abort", "--threshold", "errors < 100%", "invoicing/big-client", "invoicing/month-end")
		Expect(r.Code).To(Equal(exitBreached), r.Output)
		Expect(r.Output).To(MatchRegexp(`invoicing/big-client: threshold p99 < 1ns abort breached \([\d.]+[a-zµ]+ on the calls ended so far\): the window ends at \d`))
		Expect(r.Output).To(ContainSubstring("no further scenario runs"))
		Expect(r.Output).NotTo(ContainSubstring("invoicing/month-end: DynamoDB at"), "the next scenario ran")
		m := latestMetrics(out)
		Expect(m["scenario"]).To(Equal("invoicing/big-client"))
		Expect(m["stopped"]).To(HavePrefix("threshold p99 < 1ns abort breached"))
		// The measuring, not the command, is bounded: seeding and DynamoDB
		// Local's start take what the machine gives them.
		Expect(m["duration"]).To(BeNumerically("<", float64(30*time.Second)), "the window measured, not the minute asked for")
		Expect(m["elapsed"]).To(BeNumerically("<", float64(30*time.Second)), "the minute's window was cut short")
		Expect(latestReport(out, report.SummaryFile)).To(MatchRegexp(`\*\*Stopped\*\* at [\d.]+ s into measuring: threshold p99 < 1ns abort breached`))
		junit := latestReport(out, report.ThresholdsFile)
		Expect(junit).To(ContainSubstring(`failures="1"`), "one of the two thresholds breached:\n%s", junit)
	})
})
