package faults_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

var localLine = regexp.MustCompile(`DynamoDB Local \((http://127\.0\.0\.1:\d+)\) throttled`)

// generous starts local --limits at a scale that throttles nothing the
// specs send, and returns the endpoint's URL and its DynamoDB Local's.
func generous() (r *running, url, local string) {
	GinkgoHelper()
	r = startBin(ownLocal(), "local", "--limits", "on", "--limits-scale=100", "--report="+GinkgoT().TempDir())
	r.waitFor("Ctrl-C stops it", 1, jvmWait)
	m, l := endpointLine.FindStringSubmatch(r.Output()), localLine.FindStringSubmatch(r.Output())
	Expect(m).NotTo(BeNil(), "no endpoint line:\n%s", r.Output())
	Expect(l).NotTo(BeNil(), "no DynamoDB Local line:\n%s", r.Output())
	return r, m[1], l[1]
}

// The specs share one local --limits (a JVM's start is most of each
// spec's time), each on tables of its own; the last ends it with Ctrl-C
// and checks that none of their calls was throttled.
var _ = Describe("local --limits beside its DynamoDB Local", Label("faults"), Ordered, SpecPriority(1), func() {
	var (
		r          *running
		url, local string
	)
	BeforeAll(func() { r, url, local = generous() })

	It("answers every request of the wire corpus as DynamoDB Local does, byte for byte, at a generous scale", SpecTimeout(clientWait), func(ctx SpecContext) {
		mine, theirs := "ddbh-wire-local", "ddbh-wire-limit"
		for i := range 2 {
			Expect(designs.CreateTable(ctx, testbed.Client(local), ddbtest.WireSchema, ddbtest.WireTables(mine)[i])).To(Succeed())
			Expect(designs.CreateTable(ctx, testbed.Client(url), ddbtest.WireSchema, ddbtest.WireTables(theirs)[i])).To(Succeed())
		}
		client := &http.Client{}
		for i, c := range ddbtest.WireCorpus {
			want, err := ddbtest.SendWire(client, local, mine, c)
			Expect(err).NotTo(HaveOccurred())
			got, err := ddbtest.SendWire(client, url, theirs, c)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "request %d: %s %.300s", i, c.Op, c.Body)
		}
	})

	DescribeTable("a client the harness did not write reads Count 0, ReturnValues refused as Local refuses them, and 413",
		func(ctx SpecContext, client func(context.Context, string) clientRun, script, table string) {
			abs, err := filepath.Abs(filepath.Join("testdata", script))
			Expect(err).NotTo(HaveOccurred())
			cctx, cancel := context.WithTimeout(ctx, clientWait)
			defer cancel()
			run := client(cctx, abs)
			name, args := run(url, table)
			out := runtest.Command(cctx, GinkgoT().TempDir(), []string{"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull}, name, args...)
			Expect(out.Code).To(Equal(0), out.Output)
			var got struct {
				QueryCount, QueryScanned, ScanCount *int
				UpdatedOld, AllNew                  string
				AfterRefusals                       bool
				AllOld                              map[string]map[string]string
				TotalKeys, NoneKeys                 []string
				TooLarge                            any
			}
			Expect(json.Unmarshal([]byte(out.Output), &got)).To(Succeed(), out.Output)
			Expect(got.QueryCount).To(HaveValue(Equal(0)), "Query's Count 0 is in the answer")
			Expect(got.QueryScanned).To(HaveValue(Equal(0)), "Query's ScannedCount 0 is in the answer")
			Expect(got.ScanCount).To(HaveValue(Equal(0)), "Scan's Count 0 is in the answer")
			Expect(got.UpdatedOld).To(Equal("ValidationException"), "a PutItem's UPDATED_OLD is refused")
			Expect(got.AllNew).To(Equal("ValidationException"), "a PutItem's ALL_NEW is refused")
			Expect(got.AfterRefusals).To(BeFalse(), "the refused puts wrote nothing")
			Expect(got.AllOld).To(HaveKeyWithValue("n", HaveKey("N")), "ALL_OLD asked, the old image given")
			Expect(got.TotalKeys).To(Equal([]string{"CapacityUnits", "TableName"}), "TOTAL's shape, not INDEXES'")
			Expect(got.NoneKeys).To(BeEmpty(), "nothing asked, nothing given")
			Expect(got.TooLarge).To(BeEquivalentTo(413), "a 17 MiB request is refused with 413")
		},
		Entry("boto3", boto3, "wire_boto3.py", "ddbh-boto3-wire", SpecTimeout(clientWait)),
		Entry("the AWS SDK for JavaScript v3", sdkForJS, "wire_js.cjs", "ddbh-js-wire", SpecTimeout(clientWait)))

	It("ends on Ctrl-C with 130, having throttled none of the calls above", SpecTimeout(exitWait+atOnce), func(_ SpecContext) {
		Expect(r.Command.Process.Signal(os.Interrupt)).To(Succeed())
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(exitInterrupted), r.Output())
		Expect(r.Output()).To(MatchRegexp(`endpoint: [\d,]+ data-plane calls, 0 throttled`))
	})
})
