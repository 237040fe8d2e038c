package endpoint

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// connCounter is an HTTP server that counts the connections it accepts
// and can close them all.
type connCounter struct {
	srv    *httptest.Server
	closes chan struct{} // a value each time the server sees a connection end

	mu     sync.Mutex
	opened int
	live   map[net.Conn]bool
}

func newConnCounter(t *testing.T, h http.HandlerFunc) *connCounter {
	c := &connCounter{live: map[net.Conn]bool{}, closes: make(chan struct{}, 64)}
	c.srv = httptest.NewUnstartedServer(h)
	c.srv.Config.ConnState = func(nc net.Conn, s http.ConnState) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch s {
		case http.StateNew:
			c.opened++
			c.live[nc] = true
		case http.StateClosed, http.StateHijacked:
			delete(c.live, nc)
			select {
			case c.closes <- struct{}{}:
			default:
			}
		}
	}
	c.srv.Start()
	t.Cleanup(c.srv.Close)
	return c
}

func (c *connCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened
}

func (c *connCounter) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.live)
}

// closeAll closes every connection the server holds, as a server does
// when a kept-alive connection has been idle too long.
func (c *connCounter) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for nc := range c.live {
		nc.Close()
	}
}

func post(t *testing.T, ctx context.Context, d Doer, url, body string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := d.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// echo answers a request's body back.
func echo(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Write(b)
}

// TestConnsKeepAndReuse checks that answers read whole give their
// connection back: calls one after another use one connection, and each
// gets its own answer.
func TestConnsKeepAndReuse(t *testing.T) {
	srv := newConnCounter(t, echo)
	p := newConns(http.DefaultClient)
	for i, body := range []string{`{"a":1}`, ``, `{}`} {
		status, got, err := post(t, t.Context(), p, srv.srv.URL, body)
		if err != nil || status != http.StatusOK || got != body {
			t.Fatalf("call %d: %d %q %v, want 200 %q", i, status, got, err, body)
		}
	}
	if n := srv.count(); n != 1 {
		t.Errorf("3 calls one after another opened %d connections, want 1", n)
	}
}

// TestConnsServerClosedIdle checks that a call meeting a kept connection
// the server has closed is sent again on a new one, its body whole.
func TestConnsServerClosedIdle(t *testing.T) {
	srv := newConnCounter(t, echo)
	p := newConns(http.DefaultClient)
	if _, _, err := post(t, t.Context(), p, srv.srv.URL, `{"first":true}`); err != nil {
		t.Fatal(err)
	}
	srv.closeAll()
	status, got, err := post(t, t.Context(), p, srv.srv.URL, `{"second":true}`)
	if err != nil || status != http.StatusOK || got != `{"second":true}` {
		t.Fatalf("after the server closed the kept connection: %d %q %v, want 200 and the body", status, got, err)
	}
	if n := srv.count(); n != 2 {
		t.Errorf("%d connections opened, want 2: the closed one and its replacement", n)
	}
	// A body that cannot be had again (the SDK's stream) is read whole
	// before it is sent, so that it can be.
	srv.closeAll()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.srv.URL, io.NopCloser(strings.NewReader(`{"third":true}`)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Do(req)
	if err != nil {
		t.Fatalf("a stream's body after the server closed the kept connection: %v", err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != `{"third":true}` {
		t.Errorf("a stream's body sent again: %q, want it whole", b)
	}
}

// TestConnsContextEnds checks that a call whose context ends while the
// server has not answered returns the context's error, and that its
// connection is not kept: the next call opens another.
func TestConnsContextEnds(t *testing.T) {
	release := make(chan struct{})
	srv := newConnCounter(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		echo(w, r)
	})
	defer close(release)
	p := newConns(http.DefaultClient)
	if _, _, err := post(t, t.Context(), p, srv.srv.URL, `{}`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := post(t, ctx, p, srv.srv.URL+"/slow", `{}`); err != context.DeadlineExceeded {
		t.Fatalf("a call past its deadline: %v, want %v", err, context.DeadlineExceeded)
	}
	if _, _, err := post(t, t.Context(), p, srv.srv.URL, `{}`); err != nil {
		t.Fatal(err)
	}
	if n := srv.count(); n != 2 {
		t.Errorf("%d connections opened, want 2: the one the deadline ended is not kept", n)
	}
}

// TestConnsInterimAnswer checks that a 100 Continue from the server is
// passed over for the answer after it.
func TestConnsInterimAnswer(t *testing.T) {
	srv := newConnCounter(t, echo)
	p := newConns(http.DefaultClient)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.srv.URL, strings.NewReader(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Expect", "100-continue")
	resp, err := p.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(b) != `{"x":1}` {
		t.Errorf("with Expect: 100-continue: %d %q, want 200 and the body", resp.StatusCode, b)
	}
}

// TestConnsCloseTheLongIdle checks, on a fake clock, that a connection
// left at the bottom of the pool while calls keep taking the one on top
// is closed once idle for idleFor, where the server would close it.
func TestConnsCloseTheLongIdle(t *testing.T) {
	// Two calls in flight at once, so that the pool holds two connections.
	var arrived sync.WaitGroup
	arrived.Add(2)
	both := make(chan struct{})
	go func() { arrived.Wait(); close(both) }()
	srv := newConnCounter(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pair" {
			arrived.Done()
			select {
			case <-both:
			case <-time.After(time.Minute):
			}
		}
		echo(w, r)
	})
	p := newConns(http.DefaultClient)
	clock := time.Unix(1_000_000, 0)
	p.now = func() time.Time { return clock }
	var calls sync.WaitGroup
	for range 2 {
		calls.Go(func() {
			if _, _, err := post(t, t.Context(), p, srv.srv.URL+"/pair", `{}`); err != nil {
				t.Error(err)
			}
		})
	}
	calls.Wait()
	if n := srv.open(); n != 2 {
		t.Fatalf("%d connections open after two calls at once, want 2", n)
	}
	for _, at := range []time.Duration{idleFor / 2, idleFor/2 + time.Second} { // the one on top never idle for idleFor, the other past it
		clock = clock.Add(at)
		if _, _, err := post(t, t.Context(), p, srv.srv.URL, `{}`); err != nil {
			t.Fatal(err)
		}
	}
	// The server sees the close after the client makes it.
	select {
	case <-srv.closes:
	case <-time.After(time.Minute):
		t.Fatalf("the server saw no connection end within a minute of the one idle past %v being due to close", idleFor)
	}
	if n := srv.open(); n != 1 {
		t.Errorf("%d connections open after the one idle past %v closed, want 1", n, idleFor)
	}
	if n := srv.count(); n != 2 {
		t.Errorf("%d connections opened, want 2: calls kept taking the one on top", n)
	}
}

// TestConnsLeftUnread checks that an answer closed with a little left
// unread still gives its connection back, and one with more than
// answerRest left closes it rather than reading it all.
func TestConnsLeftUnread(t *testing.T) {
	long := strings.Repeat("x", 4*answerRest)
	srv := newConnCounter(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("long") {
			io.WriteString(w, long)
			return
		}
		io.WriteString(w, `{"a":1}`)
	})
	p := newConns(http.DefaultClient)
	call := func(query string) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.srv.URL+query, strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var first [1]byte
		resp.Body.Read(first[:])
		resp.Body.Close()
	}
	call("")
	call("")
	if n := srv.count(); n != 1 {
		t.Fatalf("2 short answers closed with a few bytes unread opened %d connections, want 1", n)
	}
	call("?long")
	call("")
	if n := srv.count(); n != 2 {
		t.Errorf("an answer closed with %d bytes unread, then another call: %d connections opened, want 2 (the first closed, not read on)", len(long)-1, n)
	}
}

// An answer of Local's is read whole up to the bound, and refused past it
// (by its Content-Length, TestAnswerOverBoundRefused).
func TestReadAnswerBounded(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{{"", true}, {"1234", true}, {"12345", false}} {
		// The length unknown (-1, chunked): counted as read.
		b, err := readAnswer(strings.NewReader(c.body), -1, 4)
		if c.ok && (err != nil || string(b) != c.body) {
			t.Errorf("%q with a bound of 4: %q %v, want it whole", c.body, b, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "longer than any DynamoDB gives")) {
			t.Errorf("%q with a bound of 4: %q %v, want refused", c.body, b, err)
		}
	}
}

// TestAnswerOverBoundRefused checks that the endpoint answers DynamoDB's
// 500 for an answer of Local's over MaxAnswer, rather than reading it,
// both for a call passed through and for one decided (sent to Local
// once, not again as passed through).
func TestAnswerOverBoundRefused(t *testing.T) {
	var gets atomic.Int32
	local := newConnCounter(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("X-Amz-Target") {
		case "DynamoDB_20120810.DescribeTable":
			io.WriteString(w, `{"Table":{"TableName":"t","TableStatus":"ACTIVE","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],`+
				`"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"}}}`)
			return
		case "DynamoDB_20120810.GetItem":
			gets.Add(1)
		}
		w.Header().Set("Content-Length", strconv.Itoa(MaxAnswer+1))
		w.Write([]byte(`{"Item":{`)) // and no more: the endpoint reads none of it
	})
	h := New(Config{Local: local.srv.URL})
	for _, c := range []struct{ op, body string }{
		{"ListTables", `{}`},
		{"GetItem", `{"TableName":"t","Key":{"PK":{"S":"a"}}}`},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
		r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+c.op)
		r.Header.Set("Authorization", placeholderAuth)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "longer than any DynamoDB gives") {
			t.Errorf("%s, an answer of %d bytes from Local: %d %.300s, want 500 naming its length", c.op, MaxAnswer+1, w.Code, w.Body)
		}
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("the GetItem reached Local %d times, want once", n)
	}
}
