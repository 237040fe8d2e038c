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
// keeps every request until released. It counts the requests it held at
// once, at most, and those their client gave up on.
type holdingProxy struct {
	*httptest.Server
	hold    atomic.Bool
	held    atomic.Int64
	peak    atomic.Int64
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
			n := p.held.Add(1)
			for peak := p.peak.Load(); n > peak && !p.peak.CompareAndSwap(peak, n); peak = p.peak.Load() {
			}
			select {
			case <-p.release:
				p.held.Add(-1)
			case <-r.Context().Done():
				p.held.Add(-1)
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

var _ = Describe("calls the run's own drain cuts short", Label("faults"), SpecPriority(1), func() {
	It("are counted apart, not as the design's errors, and the progress lines say drain", func(ctx SpecContext) {
		proxy := newHoldingProxy(shared(ctx))
		out := GinkgoT().TempDir()
		r := startBin(given(proxy.URL), "bench", "--limits=off", "--duration=15s", "--out="+out, "invoicing/big-client")

		By("holding every request from the window's third second on: 13 s left, which a busy machine reaches before the window ends")
		r.waitFor("invoicing/big-client     2s", 1, 3*time.Minute) // seeding comes first
		proxy.hold.Store(true)

		By("releasing them once the drain's deadline has cut the calls short")
		r.waitFor("drain +", 1, time.Minute)
		Expect(proxy.peak.Load()).To(BeNumerically(">", 0), "no request was held: the window ended before holding began")
		// The drain's deadline, 10 s after the window, cuts every call in
		// flight at once: most of what is held gives up together. (A few
		// of the meter's own reads, bounded at 10 s, may give up before.)
		Eventually(func() bool { return 2*proxy.gaveUp.Load() > proxy.peak.Load() }).
			WithTimeout(30*time.Second).WithPolling(50*time.Millisecond).Should(BeTrue(), "the held calls gave up at the drain's deadline")
		proxy.Release()

		code, _ := r.waitExit(time.Minute)
		Expect(code).To(BeZero(), r.Output())
		m := latestMetrics(out)
		Expect(m["state"]).To(Equal("complete"))
		Expect(m["cut_off"]).To(BeNumerically(">", 0), "the calls cut short are counted:\n%s\n%v", r.Output(), m["total"])
		summary, err := os.ReadFile(filepath.Join(out, "latest", "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(MatchRegexp(`\*\*\d+ calls were cut short\*\* when the drain after the run ended`))
		total, _ := m["total"].(map[string]any)
		Expect(total).NotTo(BeNil())
		Expect(total["status_codes"]).NotTo(HaveKey("500"), "no call counts as cancelled (500)")
		Expect(total["errors"]).NotTo(ContainElement(ContainSubstring("cancel")), "none of them is the design's error")
	}, SpecTimeout(5*time.Minute))
})
