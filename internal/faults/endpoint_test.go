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

	"github.com/ddbharness/ddbharness/internal/runtest"
)

// clientWait bounds a client script's whole run against the endpoint: it
// stops each step at the answer it looks for, in seconds on an idle
// machine.
const clientWait = 3 * time.Minute

var endpointLine = regexp.MustCompile(`endpoint: (http://127\.0\.0\.1:\d+)\n`)

var _ = Describe("local --limits, for clients the harness did not write", Label("faults"), func() {
	It("gives boto3 a hot key throttled with its reasons and retried, UnprocessedItems, and a transaction conflict", func(ctx SpecContext) {
		if out, err := exec.CommandContext(ctx, "python3", "-c", "import boto3").CombinedOutput(); err != nil {
			Fail(fmt.Sprintf("this spec drives the endpoint with boto3, which python3 cannot import (%v: %s): install it (apt-get install python3-boto3) and run make faults again", err, out))
		}
		r := startBin(ownLocal(), "local", "--limits", "--limits-scale=0.01")
		r.waitFor("endpoint: http://127.0.0.1:", 1, jvmWait)
		url := endpointLine.FindStringSubmatch(r.Output())[1]

		script, err := filepath.Abs(filepath.Join("testdata", "endpoint_boto3.py"))
		Expect(err).NotTo(HaveOccurred())
		cctx, cancel := context.WithTimeout(ctx, clientWait)
		defer cancel()
		py := runtest.Command(cctx, GinkgoT().TempDir(), []string{"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull},
			"python3", script, url, "ddbh-boto3-faults")
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
		Expect(got.Throttled.Reasons[0].Resource).To(Equal("arn:aws:dynamodb:ddblocal:000000000000:table/ddbh-boto3-faults"))
		Expect(got.Throttled.Retries).To(BeNumerically(">=", 1), "boto3's own retryer retried")
		Expect(got.Unprocessed).To(BeNumerically(">", 0), "a batch write came back with UnprocessedItems")
		Expect(got.Conflict).NotTo(BeNil(), "no transaction was cancelled for a conflict")
		Expect(got.Conflict.Code).To(Equal("TransactionCanceledException"))
		Expect(got.Conflict.Reasons).To(Equal([]string{"TransactionConflict"}))

		Expect(r.Output()).To(MatchRegexp(`hottest key "ddbh-boto3-faults/hot"`), "the line a second names the hot key")
		Expect(r.Signal(os.Interrupt)).NotTo(BeNil())
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitInterrupted), r.Output())
		Expect(r.Output()).To(MatchRegexp(`endpoint: [\d,]+ data-plane calls, [1-9][\d,]* throttled, [1-9][\d,]* transaction conflicts`))
	}, SpecTimeout(jvmWait+clientWait+exitWait))
})
