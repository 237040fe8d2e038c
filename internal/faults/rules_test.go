package faults_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
)

// faultSeen is what a client script saw of one fault kind.
type faultSeen struct {
	Code         string
	Status       int
	Reasons      []string
	Cancellation []string
	Retries      int  // of the call that met the fault as it is
	Retried      int  // of the call after it, with the client's retryer
	Written      bool // a cancelled transaction's items stored
}

var _ = Describe("local --faults, for clients the harness did not write", Label("faults"), SpecPriority(1), func() {
	DescribeTable("each fault kind of a rules file as the client sees it: its exception, reasons and status, retried or not by the client's own retryer",
		func(ctx SpecContext, client func(context.Context, string) clientRun, script, table string) {
			abs, err := filepath.Abs(filepath.Join("testdata", script))
			Expect(err).NotTo(HaveOccurred())
			rules, err := filepath.Abs(filepath.Join("testdata", "faults.rules"))
			Expect(err).NotTo(HaveOccurred())
			cctx, cancel := context.WithTimeout(ctx, clientWait)
			defer cancel()
			run := client(cctx, abs)

			// With the limits at DynamoDB's own figures: the rules compose
			// with them, and the script's few calls come near no limit.
			r := startBin(ownLocal(), "local", "--limits", "--faults", rules, "--report="+GinkgoT().TempDir())
			r.waitFor("endpoint: http://127.0.0.1:", 1, jvmWait)
			m := endpointLine.FindStringSubmatch(r.Output())
			Expect(m).NotTo(BeNil(), "no endpoint line:\n%s", r.Output())
			Expect(r.Output()).To(ContainSubstring("fault 12: op=GetItem key=pk:slow latency=300ms"), "the rules are printed at start")
			name, args := run(m[1], table)
			out := runtest.Command(cctx, GinkgoT().TempDir(), []string{"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull}, name, args...)
			Expect(out.Code).To(Equal(0), out.Output)
			var got struct {
				Throttle, Provisioned, Limit, E500, E503 faultSeen
				TxConflict                               faultSeen `json:"tx-conflict"`
				TxThrottle                               faultSeen `json:"tx-throttle"`
				Single                                   faultSeen
				UnprocessedItems                         struct{ Back, Written []string }
				UnprocessedKeys                          struct{ Read, Back []string }
				Reset                                    struct {
					Code               string
					AppliedBeforeReset bool
					Retried, N         int
				}
				SlowMillis int
			}
			Expect(json.Unmarshal([]byte(out.Output), &got)).To(Succeed(), out.Output)

			for _, c := range []struct {
				seen   faultSeen
				code   string
				status int
				reason string
			}{
				{got.Throttle, "ThrottlingException", 400, "TableReadKeyRangeThroughputExceeded"},
				{got.Provisioned, "ProvisionedThroughputExceededException", 400, "TableReadProvisionedThroughputExceeded"},
				{got.Limit, "RequestLimitExceeded", 400, "TableReadAccountLimitExceeded"},
				{got.E500, "InternalServerError", 500, ""},
				{got.E503, "ServiceUnavailable", 503, ""},
			} {
				Expect(c.seen.Code).To(Equal(c.code))
				Expect(c.seen.Status).To(Equal(c.status), c.code)
				if c.reason != "" {
					Expect(c.seen.Reasons).To(Equal([]string{c.reason}), c.code)
				}
				Expect(c.seen.Retries).To(Equal(0), "%s: a client of one attempt meets the fault as it is", c.code)
				Expect(c.seen.Retried).To(Equal(1), "%s: the client's retryer retried it once and got through", c.code)
			}
			for _, c := range []struct {
				seen   faultSeen
				reason string
			}{{got.TxConflict, "TransactionConflict"}, {got.TxThrottle, "ThrottlingError"}} {
				Expect(c.seen.Code).To(Equal("TransactionCanceledException"))
				Expect(c.seen.Cancellation).To(Equal([]string{c.reason, "None"}), "the action aimed at, and None for the other")
				Expect(c.seen.Retries).To(Equal(0), "%s: a cancelled transaction is not retried", c.reason)
				Expect(c.seen.Written).To(BeFalse(), "%s: a cancelled transaction writes nothing", c.reason)
			}
			Expect(got.Single.Code).To(Equal("TransactionConflictException"))
			Expect(got.Single.Retries).To(Equal(0))
			Expect(got.UnprocessedItems.Back).To(Equal([]string{"back-1", "back-2"}))
			Expect(got.UnprocessedItems.Written).To(Equal([]string{"keep-1", "keep-2"}))
			Expect(got.UnprocessedKeys.Read).To(Equal([]string{"get-1"}))
			Expect(got.UnprocessedKeys.Back).To(Equal([]string{"get-2"}))
			Expect(got.Reset.Code).NotTo(BeEmpty(), "the call whose connection was reset failed")
			Expect(got.Reset.AppliedBeforeReset).To(BeTrue(), "the write was applied before the reset")
			Expect(got.Reset.Retried).To(Equal(1), "the client's retryer retried the reset call")
			Expect(got.Reset.N).To(Equal(3), "three writes for two calls: the retry wrote again")
			Expect(got.SlowMillis).To(BeNumerically(">=", 300))

			resp, err := http.Get(m[1] + "/ddbharness/status")
			Expect(err).NotTo(HaveOccurred())
			var st struct {
				Faults []struct {
					Rule          string
					Matched, Hits int
				}
			}
			Expect(json.NewDecoder(resp.Body).Decode(&st)).To(Succeed())
			resp.Body.Close()
			Expect(st.Faults).To(HaveLen(12))
			Expect(st.Faults[0].Rule).To(Equal("op=GetItem key=pk:throttle first=2 error=ThrottlingException"))
			Expect([]int{st.Faults[0].Matched, st.Faults[0].Hits}).To(Equal([]int{3, 2}), "three calls, the first two refused")
			Expect([]int{st.Faults[10].Matched, st.Faults[10].Hits}).To(Equal([]int{3, 2}), "the reset call, its retry, and the call after")

			Expect(r.Command.Process.Signal(os.Interrupt)).To(Succeed())
			code, _ := r.waitExit(exitWait)
			Expect(code).To(Equal(exitInterrupted), r.Output())
			Expect(r.Output()).To(ContainSubstring("fault 1: 3 matched, 2 hit (op=GetItem key=pk:throttle first=2 error=ThrottlingException)"))
		},
		Entry("boto3", boto3, "faults_boto3.py", "ddbh-boto3-rules", SpecTimeout(jvmWait+clientWait+exitWait)),
		Entry("the AWS SDK for JavaScript v3", sdkForJS, "faults_js.cjs", "ddbh-js-rules", SpecTimeout(jvmWait+clientWait+exitWait)))

	It("refuses a rules file with a bad rule, naming its line, the rule and the fix, before DynamoDB Local starts (exit 2)", func(ctx SpecContext) {
		file := filepath.Join(GinkgoT().TempDir(), "faults.rules")
		Expect(os.WriteFile(file, []byte("# ok\nop=GetItem first=1 error=ThrottlingException\nop=Query index=G1 error=UnprocessedKeys\n"), 0o644)).To(Succeed())
		r := startBin(ownLocal(), "local", "--faults", file)
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitBadInput), r.Output())
		Expect(r.Output()).To(ContainSubstring(`faults.rules:3: rule "op=Query index=G1 error=UnprocessedKeys": error=UnprocessedKeys cannot happen to a Query: it meets BatchGetItem; change op= or error=`))
		Expect(r.Output()).NotTo(ContainSubstring("DynamoDB Local"), "nothing started")
	})
})
