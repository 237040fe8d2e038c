package faults_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// holdingProxy is DynamoDB Local behind a proxy that, once told to hold,
// keeps every request until released, and counts the held requests their
// client gave up on.
type holdingProxy struct {
	*httptest.Server
	hold    atomic.Bool
	gaveUp  atomic.Int64
	release chan struct{}
}

func newHoldingProxy(endpoint string) *holdingProxy {
	GinkgoHelper()
	target, err := url.Parse(endpoint)
	Expect(err).NotTo(HaveOccurred())
	next := httputil.NewSingleHostReverseProxy(target)
	p := &holdingProxy{release: make(chan struct{})}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.hold.Load() {
			// Read the body first: only then does the server watch the
			// connection, and see the client give up.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			select {
			case <-p.release:
			case <-r.Context().Done():
				p.gaveUp.Add(1)
				return
			}
		}
		next.ServeHTTP(w, r)
	}))
	DeferCleanup(p.Close)
	DeferCleanup(func() { p.Release() }) // runs first: Close waits for the handlers
	return p
}

// Release lets every held request through, and every later one.
func (p *holdingProxy) Release() {
	if p.hold.CompareAndSwap(true, false) {
		close(p.release)
	}
}

var _ = Describe("calls the run's own drain cuts short", Label("faults"), func() {
	It("are counted apart, not as the design's errors, and the progress lines say drain", func(ctx SpecContext) {
		srv := embedded(ctx)
		proxy := newHoldingProxy(srv.Endpoint)
		out := GinkgoT().TempDir()
		r := startBin(given(proxy.URL), "bench", "--limits=off", "--duration=5s", "--out="+out, "invoicing/month-end")

		By("holding every request from the third of the window's five seconds on")
		r.waitFor("invoicing/month-end     2s", 1, time.Minute)
		proxy.hold.Store(true)

		By("releasing them once the drain's deadline has cut the calls short")
		r.waitFor("drain +", 1, 20*time.Second)
		Eventually(proxy.gaveUp.Load).WithTimeout(30*time.Second).WithPolling(50*time.Millisecond).
			Should(BeNumerically(">", 0), "the drain ends 10 s after the window; its calls give up then")
		proxy.Release()

		code, _ := r.waitExit(time.Minute)
		Expect(code).To(BeZero(), r.Output())
		m := latestMetrics(out)
		Expect(m["state"]).To(Equal("complete"))
		Expect(m["cut_off"]).To(BeNumerically(">", 0), "the calls cut short are counted")
		Expect(r.Output()).To(MatchRegexp(`(?m)^\s+\d+ calls/s, p99 \S+, 0\.0% errors`), "none of them is the design's error")
		summary, err := os.ReadFile(filepath.Join(out, "latest", "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(MatchRegexp(`\*\*\d+ calls were cut short\*\* when the drain after the run ended`))
		total, _ := m["total"].(map[string]any)
		Expect(total).NotTo(BeNil())
		Expect(total["status_codes"]).NotTo(HaveKey("500"), "no call counts as cancelled (500)")
		Expect(total["errors"]).To(BeEmpty())
	}, SpecTimeout(3*time.Minute))
})
