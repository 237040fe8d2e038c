package endpoint

import (
	"bytes"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/throughput"
)

// Fault rules are decided before the emulator: a rule fires on the calls
// it counts whatever the limits would have made of them, so a test that
// aims every=3 meets its fault on the third call; and a call a rule
// answers with an error never reaches the emulator or DynamoDB Local, so
// it is charged nothing and holds no items, as DynamoDB charges nothing
// for a request it refuses. A rule that lets the call go on (latency,
// ConnectionReset, the part of a batch a rule leaves) sends it through
// the emulator as any other call, where the limits may refuse it in
// turn.

// Aim replaces the handler's fault rules with s (nil: none) from the next
// call on, so that a test aims a fault at one pattern at a time in one
// endpoint.
func (h *Handler) Aim(s *fault.Set) { h.faults.Store(s) }

// Faults is the handler's fault rules now (nil: none).
func (h *Handler) Faults() *fault.Set { return h.faults.Load() }

// faulted answers the call when a fault rule fires on it; false to serve
// it as usual.
func (h *Handler) faulted(w http.ResponseWriter, r *http.Request, name string, body []byte) bool {
	s := h.faults.Load()
	if s == nil || !slices.Contains(fault.Ops, name) {
		return false
	}
	c := fault.Read(name, body)
	d, ok := s.Decide(c)
	if !ok {
		return false
	}
	if d.Latency > 0 {
		t := time.NewTimer(d.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true // the client is gone: nothing to answer
		}
	}
	switch d.Error {
	case fault.None:
		return false
	case fault.Throttling, fault.Provisioned, fault.RequestLimit:
		write(w, http.StatusBadRequest, nil, throttle(c, d.Error).Body())
	case fault.Conflict, fault.ThrottlingError:
		if !fault.Transaction(name) {
			write(w, http.StatusBadRequest, nil, emulate.ConflictBody())
			break
		}
		codes := make([]string, len(d.Aimed))
		for i, a := range d.Aimed {
			codes[i] = "None"
			if a {
				codes[i] = string(d.Error)
			}
		}
		write(w, http.StatusBadRequest, nil, emulate.Cancelled(codes))
	case fault.UnprocessedItems, fault.UnprocessedKeys:
		h.handBack(w, r, name, body, d.Aimed)
	case fault.Internal:
		// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
		// (HTTP 500, InternalServerError); the message is inferred.
		serverError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
	case fault.Unavailable:
		// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
		// (HTTP 503, ServiceUnavailable); the body's namespace and message are inferred,
		// the same as InternalServerError's.
		serverError(w, http.StatusServiceUnavailable, "ServiceUnavailable", "Service unavailable")
	case fault.Reset:
		h.resetAfter(w, r, name, body)
	}
	return true
}

// localARN is the ARN DynamoDB Local gives a table, whose throttling
// reasons a fault names.
const localARN = "arn:aws:dynamodb:ddblocal:000000000000:table/"

// throttle is the refusal a throttling fault on c answers: the exception
// of kind, with the reason for its limit (a partition's on demand, a
// provisioned budget, the account's quota) on the table of the first
// item aimed at, or its GSI for a Query or Scan of one.
func throttle(c fault.Call, kind fault.Kind) emulate.Throttle {
	t := emulate.Throttle{Exception: string(kind), Index: c.Index != ""}
	limit := throughput.KeyRange
	switch kind {
	case fault.Throttling:
		t.OnDemand = true
	case fault.Provisioned:
		limit = throughput.Provisioned
	case fault.RequestLimit:
		limit, t.OnDemand = throughput.AccountLimit, true
	}
	side := throughput.Read
	if fault.Write(c.Op) {
		side = throughput.Write
	}
	t.Reason = throughput.Reason(t.Index, side, limit)
	if len(c.Items) > 0 && c.Items[0].Table != "" {
		t.Resource = localARN + c.Items[0].Table
		if t.Index {
			t.Resource += "/index/" + c.Index
		}
	}
	return t
}

// handBack serves a batch without the items aimed at, which its answer
// hands back unprocessed (with any DynamoDB Local or the emulator handed
// back): all of them aimed at, nothing is sent, and the answer hands the
// whole batch back.
func (h *Handler) handBack(w http.ResponseWriter, r *http.Request, name string, body []byte, aimed []bool) {
	send, back, err := fault.Split(name, body, aimed)
	if err != nil {
		h.serve(w, r, name, body) // a batch the rule cannot split: served whole, as sent
		return
	}
	answer := &recorder{header: http.Header{}, status: http.StatusOK}
	if send != nil {
		h.serve(answer, r, name, send)
	} else {
		answer.body.WriteString("{}")
	}
	if answer.status != http.StatusOK {
		answer.to(w)
		return
	}
	b, err := fault.Merge(name, answer.body.Bytes(), back)
	if err != nil {
		internal(w, err)
		return
	}
	write(w, http.StatusOK, answer.header, b)
}

// resetAfter serves the call (a write is applied), then resets the
// connection instead of answering: the client cannot tell whether the
// call happened, as after a network failure on the way back.
func (h *Handler) resetAfter(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	h.serve(&recorder{header: http.Header{}}, r, name, body)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		internal(w, err)
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0) // a reset (RST), not an orderly close
	}
	conn.Close()
}

// recorder keeps an answer the endpoint writes for itself, to change it
// (a batch's unprocessed items) or drop it (a reset).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header         { return rec.header }
func (rec *recorder) Write(b []byte) (int, error) { return rec.body.Write(b) }
func (rec *recorder) WriteHeader(status int)      { rec.status = status }

// to writes the answer kept to w as it was.
func (rec *recorder) to(w http.ResponseWriter) {
	for k, vs := range rec.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(rec.status)
	w.Write(rec.body.Bytes())
}
