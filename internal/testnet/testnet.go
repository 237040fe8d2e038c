package testnet

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// OutsideIPv4 is one of this machine's IPv4 addresses that is not
// loopback, or "" when it has none.
func OutsideIPv4() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// ClosedPort returns a loopback endpoint nothing listens on.
func ClosedPort() string {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	endpoint := "http://" + l.Addr().String()
	Expect(l.Close()).To(Succeed())
	return endpoint
}

// NotDynamoDB starts, for the current spec, an HTTP server on host (any
// free port) that answers every request with status and body, and counts
// the requests that reach it.
func NotDynamoDB(host string, status int, body string) (url string, requests *atomic.Int32) {
	GinkgoHelper()
	requests = new(atomic.Int32)
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	Expect(err).NotTo(HaveOccurred())
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	ts.Listener = l
	ts.Start()
	DeferCleanup(ts.Close)
	return ts.URL, requests
}
