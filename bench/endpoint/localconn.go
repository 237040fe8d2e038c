package endpoint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// localConns sends requests to DynamoDB Local over keep-alive connections
// it holds, each request written and its answer read in the caller's own
// goroutine. net/http's Transport hands every request to a writing and a
// reading goroutine per connection; on a loaded machine each hand-off is
// a wake-up the call waits for, and the endpoint makes one such call for
// each of its own.
type localConns struct {
	addr string
	idle chan *localConn
}

type localConn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

// dialTimeout bounds a connection to DynamoDB Local on loopback.
const dialTimeout = 10 * time.Second

// newLocalConns is a localConns to the host of the URL local, keeping up
// to idle connections between calls.
func newLocalConns(local string, idle int) (*localConns, error) {
	u, err := url.Parse(local)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("DynamoDB Local's endpoint %q is not an http:// URL", local)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return &localConns{addr: host, idle: make(chan *localConn, idle)}, nil
}

// Do sends req and returns DynamoDB Local's answer, read whole. A
// connection Local closed while it was idle is found at the first write
// or read, before any answer came: the request is sent again once, on a
// new connection.
func (p *localConns) Do(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	for {
		c, reused := p.get()
		if c == nil {
			var err error
			if c, err = p.dial(req.Context()); err != nil {
				return nil, err
			}
		}
		resp, kept, err := c.roundTrip(req, body)
		if err == nil {
			if !kept || resp.Close || req.Close {
				c.c.Close()
			} else {
				p.put(c)
			}
			return resp, nil
		}
		c.c.Close()
		if !reused || !errors.Is(err, errIdleClosed) {
			return nil, err
		}
	}
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

func (p *localConns) get() (*localConn, bool) {
	select {
	case c := <-p.idle:
		return c, true
	default:
		return nil, false
	}
}

func (p *localConns) put(c *localConn) {
	select {
	case p.idle <- c:
	default:
		c.c.Close()
	}
}

func (p *localConns) dial(ctx context.Context) (*localConn, error) {
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return nil, err
	}
	return &localConn{c: c, r: bufio.NewReaderSize(c, 16<<10), w: bufio.NewWriterSize(c, 16<<10)}, nil
}

// errIdleClosed is a connection that ended before any of the answer came.
var errIdleClosed = errors.New("DynamoDB Local closed the connection")

// roundTrip writes req with body and reads the answer whole; a cancelled
// context (the client went away) ends the wait at once. kept is false
// when the connection cannot serve another request.
func (c *localConn) roundTrip(req *http.Request, body []byte) (resp *http.Response, kept bool, err error) {
	stop := context.AfterFunc(req.Context(), func() { c.c.SetDeadline(time.Unix(1, 0)) })
	defer func() { kept = stop() && err == nil }()
	resp, err = c.exchange(req, body)
	return resp, false, err
}

func (c *localConn) exchange(req *http.Request, body []byte) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if len(body) == 0 {
		out.Body = nil
	}
	err := out.Write(c.w)
	if err == nil {
		err = c.w.Flush()
	}
	if err == nil {
		_, err = c.r.Peek(1)
	}
	if err != nil {
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
		return nil, fmt.Errorf("%w: %v", errIdleClosed, err)
	}
	resp, err := http.ReadResponse(c.r, req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	return resp, nil
}
