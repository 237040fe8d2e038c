package testnet

import (
	"io"
	"net"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Forwarder relays TCP connections from an address of its own to a
// target, for the current spec: a DynamoDB Local on loopback reached as a
// remote endpoint would be. Paused, it cuts every connection and refuses
// new ones, as a network that went away.
type Forwarder struct {
	Addr   string // host:port it listens on
	target string
	paused atomic.Bool
	mu     sync.Mutex
	conns  map[net.Conn]bool
}

// Forward listens on host (any free port) and relays to target (host:port).
func Forward(host, target string) *Forwarder {
	GinkgoHelper()
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	Expect(err).NotTo(HaveOccurred())
	f := &Forwarder{Addr: l.Addr().String(), target: target, conns: map[net.Conn]bool{}}
	DeferCleanup(func() { l.Close(); f.Pause() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go f.relay(c)
		}
	}()
	return f
}

// Pause cuts every connection and refuses new ones until Resume.
func (f *Forwarder) Pause() {
	f.paused.Store(true)
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
	}
}

// Resume relays again.
func (f *Forwarder) Resume() { f.paused.Store(false) }

func (f *Forwarder) relay(c net.Conn) {
	if f.paused.Load() {
		c.Close()
		return
	}
	up, err := net.Dial("tcp", f.target)
	if err != nil {
		c.Close()
		return
	}
	f.track(c, up)
	defer f.untrack(c, up)
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

func (f *Forwarder) track(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		f.conns[c] = true
	}
}

func (f *Forwarder) untrack(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(f.conns, c)
	}
}
