package endpoint

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// conns sends each request to DynamoDB Local on a kept-alive connection
// written and read in the caller's goroutine, with net/http's own request
// writer and response reader. net/http's Transport hands every request to
// a writing goroutine and every answer back from a reading one: four
// wake-ups a call, which cost a single-thread client through the endpoint
// more CPU on this kind of machine than the endpoint's own work
// (docs/performance.md). A request to another scheme goes through
// fallback.
type conns struct {
	fallback Doer
	dialer   net.Dialer
	now      func() time.Time // the clock idle connections are timed by

	mu   sync.Mutex
	idle map[string][]*conn // by host:port, the most recently used last
}

// maxIdle bounds the idle connections kept per host: as many as the test
// bed's clients keep.
const maxIdle = testbed.DefaultMaxConns

// idleFor is how long an idle connection is kept: well inside the time
// after which a server closes one (DynamoDB Local 3.3.1's Jetty: 30 s,
// measured), so that a request rarely meets a connection the server has
// closed.
const idleFor = 10 * time.Second

// conn is one kept-alive connection to Local.
type conn struct {
	net.Conn
	host string
	read int64 // bytes read since the request was written
	br   *bufio.Reader
	bw   *bufio.Writer
	used time.Time
}

func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read += int64(n)
	return n, err
}

func newConns(fallback Doer) *conns {
	return &conns{fallback: fallback, now: time.Now, idle: map[string][]*conn{}}
}

// Do sends req and reads the answer's status and headers; its body is
// read from the connection, which goes back to the pool when the body
// is closed. A request that meets a kept connection the server has closed
// (nothing of an answer read) is sent once more on a new connection, as
// net/http's Transport does.
func (p *conns) Do(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" {
		return p.fallback.Do(req)
	}
	if err := rewindable(req); err != nil {
		return nil, err
	}
	c, reused := p.get(req.URL.Host)
	for {
		if c == nil {
			var err error
			if c, err = p.dial(req.Context(), req.URL.Host); err != nil {
				return nil, err
			}
		}
		resp, err := c.roundTrip(req, p)
		if err == nil {
			return resp, nil
		}
		c.Close()
		if !reused || c.read > 0 || req.Context().Err() != nil {
			return nil, err
		}
		if req.GetBody != nil {
			if req.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		c, reused = nil, false
	}
}

// rewindable lets req's body be sent again: a request made with its body
// in memory (http.NewRequest of a bytes.Reader, as the pass-through's)
// has a GetBody already; another's body is read whole once.
func rewindable(req *http.Request) error {
	if req.GetBody != nil || req.Body == nil || req.Body == http.NoBody {
		return nil
	}
	sent := req.Body
	defer sent.Close()
	b, err := readAll(io.LimitReader(sent, MaxBody+1), req.ContentLength)
	if err != nil {
		return fmt.Errorf("the request to DynamoDB Local could not be read: %w", err)
	}
	req.ContentLength = int64(len(b))
	req.GetBody = func() (io.ReadCloser, error) {
		if len(b) == 0 {
			return http.NoBody, nil // known empty: the writer need not probe it
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	req.Body, _ = req.GetBody()
	return nil
}

// roundTrip writes req on c and reads the answer's head (past any
// interim 1xx answer); the context's end closes the exchange. The body,
// read to its end and closed, gives c back to p.
func (c *conn) roundTrip(req *http.Request, p *conns) (*http.Response, error) {
	stop := context.AfterFunc(req.Context(), func() { c.SetDeadline(time.Unix(1, 0)) })
	c.read = 0
	err := req.Write(c.bw)
	if err == nil {
		err = c.bw.Flush()
	}
	var resp *http.Response
	if err == nil {
		resp, err = http.ReadResponse(c.br, req)
		for err == nil && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			resp, err = http.ReadResponse(c.br, req)
		}
	}
	if err != nil {
		stop()
		if ctxErr := req.Context().Err(); ctxErr != nil {
			err = ctxErr
		}
		return nil, err
	}
	resp.Body = &answerBody{ReadCloser: resp.Body, c: c, stop: stop, pool: p, keep: !resp.Close && !req.Close}
	return resp, nil
}

// answerBody is an answer's body: closed, its connection goes back to
// the pool.
type answerBody struct {
	io.ReadCloser
	c      *conn
	stop   func() bool
	pool   *conns
	keep   bool
	closed bool
	ended  bool // read to its end
}

func (b *answerBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.ended = true
	}
	return n, err
}

// answerRest bounds what Close reads of an answer's body left unread,
// to keep its connection: a decoder that stopped at its value's end
// leaves little or nothing.
const answerRest = 64 << 10

// Close gives the connection back unless the answer or the request said
// to close it, the context ended the exchange or more than answerRest of
// the body was left unread (an answer over the endpoint's bound); it
// closes it otherwise.
func (b *answerBody) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.ended {
		io.Copy(io.Discard, io.LimitReader(b, answerRest))
	}
	if !b.ended {
		// Closed first: net/http's Close of a response's body reads all
		// that is left of it, unbounded.
		err := b.c.Close()
		b.ReadCloser.Close()
		b.stop()
		return err
	}
	err := b.ReadCloser.Close()
	if b.stop() && err == nil && b.keep {
		b.pool.put(b.c)
		return nil
	}
	return b.c.Close()
}

func (p *conns) dial(ctx context.Context, host string) (*conn, error) {
	addr := host
	if _, _, err := net.SplitHostPort(host); err != nil {
		addr = net.JoinHostPort(host, "80")
	}
	nc, err := p.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := &conn{Conn: nc, host: host}
	c.br, c.bw = bufio.NewReader(c), bufio.NewWriter(nc)
	return c, nil
}

// get takes host's most recently used idle connection, closing those idle
// too long; nil when there is none.
func (p *conns) get(host string) (c *conn, reused bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.idle[host]
	for len(cs) > 0 {
		c, cs = cs[len(cs)-1], cs[:len(cs)-1]
		if p.now().Sub(c.used) < idleFor {
			p.idle[host] = cs
			return c, true
		}
		c.Close()
	}
	p.idle[host] = cs
	return nil, false
}

// put keeps c as host's most recently used idle connection, and closes
// the least recently used ones idle too long: under steady calls get
// never reaches them, and the server closes its end.
func (p *conns) put(c *conn) {
	c.used = p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.idle[c.host]
	old := 0
	for old < len(cs) && c.used.Sub(cs[old].used) >= idleFor {
		cs[old].Close()
		old++
	}
	if old > 0 {
		cs = append(cs[:0], cs[old:]...)
	}
	if len(cs) >= maxIdle {
		c.Close()
	} else {
		cs = append(cs, c)
	}
	p.idle[c.host] = cs
}
