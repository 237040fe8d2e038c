package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint/askmore"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
)

// A call naming more than one table (BatchGetItem, BatchWriteItem,
// TransactGetItems, TransactWriteItems, ExecuteTransaction) and a
// BatchExecuteStatement are decided in parts (parts.go): each table's
// share of the call, or each statement, goes through its own table's
// client as a call of its own, so that its table's emulator decides it
// and its table's meter charges it. The parts meet before DynamoDB Local
// (meet), and what their emulators let through reaches Local as one
// request: the client's own, less what was refused, with what the meter
// asks besides. Each part is handed its share of Local's one answer, and
// the client gets Local's answer as for any call, with the endpoint's own
// decisions in it:
//   - a batch's items refused on a table come back unprocessed, that
//     table's; all of them refused on every table, the batch is refused
//     whole, as DynamoDB refuses it;
//   - a transaction one of whose tables refuses an action is cancelled
//     whole, with a reason per action (None for the other tables'), and is
//     sent nowhere: the tables whose emulators admitted it are charged
//     nothing (inferred: AWS does not say what a transaction cancelled
//     for throughput consumes);
//   - a statement refused is answered in its place among the batch's
//     Responses, with an Error whose Code names the limit.
//
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
// (refused whole only when no item can be processed on any of its tables)
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
// (cancellation reasons: None for an action that did not cause it)

// partKey carries a call's part in its context.
type partKey struct{}

// meet installs, last before the wire, where a part waits for the others
// and is handed its share of Local's answer.
func meet(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
		return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("ddbharnessEndpointMeet", meetAt), middleware.After)
	})
}

func meetAt(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	p, _ := ctx.Value(partKey{}).(*part)
	req, ok := in.Request.(*smithyhttp.Request)
	if p == nil || !ok || designs.HarnessCall(ctx) {
		return next.HandleDeserialize(ctx, in)
	}
	if s := req.GetStream(); s != nil {
		b, err := io.ReadAll(s)
		if err != nil {
			return middleware.DeserializeOutput{}, middleware.Metadata{}, err
		}
		p.wire = b
	}
	p.arrived = true
	p.settled <- p
	select {
	case r := <-p.reply:
		return middleware.DeserializeOutput{RawResponse: r}, middleware.Metadata{}, nil
	case <-ctx.Done():
		return middleware.DeserializeOutput{}, middleware.Metadata{}, ctx.Err()
	}
}

// isTransaction reports whether operation name is all or nothing.
func isTransaction(name string) bool {
	return name == "TransactWriteItems" || name == "TransactGetItems" || name == "ExecuteTransaction"
}

// joint decides call name, read from body as in, in its parts; false
// when it passes through instead (undecided: counted so).
func (h *Handler) joint(w http.ResponseWriter, r *http.Request, name string, in any, body []byte) (done, undecided bool) {
	ps, verdict := h.split(r.Context(), r, name, in, body)
	switch verdict {
	case splitRefused:
		// Refused whole before an item is read: Local says why, and
		// nothing is charged.
		resp, err := h.forward(r, body)
		if err != nil {
			internal(w, err)
			return true, false
		}
		h.stats.count(nil, false, false)
		write(w, resp.status, resp.header, resp.body)
		return true, false
	case splitPassed, splitUndecided:
		return false, verdict == splitUndecided
	}
	start := time.Now()
	settled := make(chan *part, len(ps))
	var wg sync.WaitGroup
	called := 0
	for _, p := range ps {
		if p.aside {
			continue
		}
		called++
		p.settled, p.reply = settled, make(chan *smithyhttp.Response, 1)
		ctx := context.WithValue(designs.WithPattern(r.Context(), designs.PatternID(name)), answerKey{}, p.got)
		ctx = context.WithValue(ctx, partKey{}, p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil { // a bug: the call goes on as one the SDK refused
					p.err = fmt.Errorf("the endpoint failed on this request: %v", v)
				}
				if !p.arrived {
					settled <- p
				}
			}()
			p.out, p.err = p.op.call(ctx, p.t.db, p.in)
		}()
	}
	for range called {
		<-settled
	}
	var sent []*part
	fallback := false // a part the SDK refused before the wire: Local answers the whole call
	for _, p := range ps {
		if p.arrived {
			sent = append(sent, p)
		} else if p.got.status == 0 {
			fallback = true
		}
	}
	send := len(sent) > 0 && !fallback && (!isTransaction(name) || len(sent) == len(ps))
	var answer response // Local's, to the request joined
	var combined []byte
	var err error
	if send {
		if combined, err = joined(name, body, ps); err == nil {
			answer, err = h.forward(r, combined)
		}
	}
	for i, p := range sent {
		if p.aside {
			continue // Local answers it in its place: no part waits
		}
		switch {
		case err != nil:
			p.handed = http.StatusInternalServerError
			p.reply <- reply(p.handed, nil, []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError"}`))
		case send:
			status, b := share(name, p, i, answer.status, answer.body)
			p.handed = status
			p.reply <- reply(status, answer.header, b)
		default:
			// Refused with its transaction, or left unsent with a call
			// Local answers whole: nothing written, nothing charged.
			p.cancelled.Store(true)
			p.handed = http.StatusBadRequest
			p.reply <- reply(p.handed, nil, noneCancelled(len(p.at)))
		}
	}
	wg.Wait()
	if fallback {
		return false, partiQL(name)
	}
	h.counted(name, ps, start)
	if err != nil {
		internal(w, err)
		return true, false
	}
	status, header, b, err := h.answered(name, body, ps, send, combined, answer)
	if err != nil {
		internal(w, fmt.Errorf("the answer could not be given back as asked: %w", err))
		return true, false
	}
	if send && ranAside(sent, answer) {
		h.stats.passed(true)
	}
	write(w, status, header, b)
	return true, false
}

// joined is the request Local gets for ps: the client's body with the
// items, actions or statements their emulators refused taken out, and
// what the meter asked of each part (in its text on the wire) put in.
func joined(name string, body []byte, ps []*part) ([]byte, error) {
	bo, err := jsontext.ParseObject(body)
	if err != nil {
		return nil, err
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	var first *part
	for _, p := range ps {
		if p.arrived && first == nil {
			first = p
		}
	}
	switch name {
	case "ExecuteTransaction":
		return body, nil // sent whole, as the client wrote it
	case "BatchExecuteStatement":
		elems, err := jsontext.ParseArray(bo.Get("Statements"))
		if err != nil {
			return nil, err
		}
		var kept [][]byte
		for _, p := range ps {
			if p.arrived && p.at[0] < len(elems) {
				kept = append(kept, elems[p.at[0]])
			}
		}
		if len(kept) == len(elems) {
			return body, nil
		}
		e.Set["Statements"] = jsontext.JoinArray(kept)
		return bo.Apply(e), nil
	case "TransactWriteItems", "TransactGetItems":
		elems, err := jsontext.ParseArray(bo.Get("TransactItems"))
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			wo, err := jsontext.ParseObject(p.wire)
			if err != nil {
				return nil, err
			}
			we, err := jsontext.ParseArray(wo.Get("TransactItems"))
			if err != nil || len(we) != len(p.at) {
				return nil, fmt.Errorf("TransactItems: a part went to the wire in another shape")
			}
			for i, at := range p.at {
				elems[at] = we[i]
			}
		}
		e.Set["TransactItems"] = jsontext.JoinArray(elems)
	default: // a batch
		items, err := jsontext.ParseObject(bo.Get("RequestItems"))
		if err != nil {
			return nil, err
		}
		ie := jsontext.Edit{Set: map[string][]byte{}}
		for _, k := range items.Keys() {
			var v []byte
			for _, p := range ps {
				if p.arrived && fault.TableName(k) == p.t.name {
					wo, err := jsontext.ParseObject(p.wire)
					if err != nil {
						return nil, err
					}
					if wi, err := jsontext.ParseObject(wo.Get("RequestItems")); err == nil {
						v = wi.Get(k)
					}
				}
			}
			if v == nil {
				ie.Drop = append(ie.Drop, k)
			} else {
				ie.Set[k] = v
			}
		}
		e.Set["RequestItems"] = items.Apply(ie)
	}
	wo, err := jsontext.ParseObject(first.wire)
	if err != nil {
		return nil, err
	}
	askmore.SetAsked(&e, bo, wo)
	return bo.Apply(e), nil
}

// noneCancelled is what a part its own emulator admitted is handed when
// another table refused its transaction: a cancellation with no reason of
// its own, which its meter charges nothing for (the part is cancelled).
func noneCancelled(n int) []byte {
	reasons := make([]json.RawMessage, max(n, 1))
	for i := range reasons {
		reasons[i] = json.RawMessage(`{"Code":"None"}`)
	}
	return emulate.CancelledWith(reasons)
}

// counted counts a call decided in parts once, throttled if any part was
// (refused, or items unprocessed), and records it in each table's
// traffic with the worst of its parts' outcomes there: a part cancelled
// with its transaction takes the refusal's.
func (h *Handler) counted(name string, ps []*part, start time.Time) {
	type outcome struct {
		status uint16
		err    error
	}
	rank := func(o outcome) int {
		switch o.status {
		case engine.StatusThrottled:
			return 2
		case engine.StatusConflict:
			return 1
		}
		return 0
	}
	var keys []string
	var refusal *outcome
	outcomes := make([]outcome, len(ps))
	throttled, conflict := false, false
	for i, p := range ps {
		if p.aside {
			continue
		}
		status, _ := engine.Classify(p.err)
		if p.err == nil {
			status = uint16(p.got.status)
		}
		outcomes[i] = outcome{status, p.err}
		throttled = throttled || status == engine.StatusThrottled || unprocessed(p.out)
		conflict = conflict || designs.IsTransactionConflict(p.err)
		if !p.cancelled.Load() && rank(outcomes[i]) > 0 && (refusal == nil || rank(outcomes[i]) > rank(*refusal)) {
			refusal = &outcomes[i]
		}
		keys = append(keys, partitionKeys(p.t, p.in)...)
	}
	worst := map[*table]outcome{}
	var order []*table
	for i, p := range ps {
		if p.aside {
			continue
		}
		o := outcomes[i]
		if p.cancelled.Load() && refusal != nil {
			o = *refusal
		}
		if w, ok := worst[p.t]; !ok || rank(o) > rank(w) {
			if !ok {
				order = append(order, p.t)
			}
			worst[p.t] = o
		}
	}
	for _, t := range order {
		t.traffic.record(name, start, worst[t].status, worst[t].err)
	}
	h.stats.count(keys, throttled, conflict)
}

// reply is a part's share of an answer, as the SDK reads one off the
// wire; its checksum, Local's of the whole answer, left out.
func reply(status int, header http.Header, b []byte) *smithyhttp.Response {
	hd := header.Clone()
	if hd == nil {
		hd = http.Header{}
	}
	hd.Del("X-Amz-Crc32")
	hd.Set("Content-Type", "application/x-amz-json-1.0")
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	return &smithyhttp.Response{Response: &http.Response{
		StatusCode: status, Status: strconv.Itoa(status) + " " + http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: hd, Body: io.NopCloser(bytes.NewReader(b)), ContentLength: int64(len(b)),
	}}
}

// ranAside reports whether Local's answer to the statements sent ran one
// set aside (splitStatements) rather than answer it with an Error in its
// place: a statement the endpoint could not decide, which DynamoDB
// would have metered.
func ranAside(sent []*part, answer response) bool {
	if answer.status != http.StatusOK || !slices.ContainsFunc(sent, func(p *part) bool { return p.aside }) {
		return false // no statement set aside: the answer need not be read
	}
	var out struct {
		Responses []struct {
			Error json.RawMessage `json:"Error"`
		} `json:"Responses"`
	}
	if json.Unmarshal(answer.body, &out) != nil {
		return false
	}
	for i, p := range sent {
		if p.aside && (i >= len(out.Responses) || out.Responses[i].Error == nil) {
			return true
		}
	}
	return false
}
