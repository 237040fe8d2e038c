package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint/askmore"
	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// MaxBody bounds a request's body as DynamoDB does: a larger one is
// refused with HTTP 413, before it is read. DynamoDB documents 16 MB for
// a BatchWriteItem; that the bound is on the whole body, in MiB, and
// answered 413 is measured (a 17 MiB PutItem body), and DynamoDB Local
// draws the line at the same byte.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
// Source: https://github.com/scylladb/scylladb/blob/master/test/alternator/test_manual_requests.py
const MaxBody = 16 << 20

// MaxAnswer bounds what the endpoint reads of one of DynamoDB Local's
// answers: DynamoDB's largest answer is a BatchGetItem's, at most 16 MB
// of items, which DynamoDB JSON spells in more (names, type tags, base64
// binary at 4 bytes for 3); a longer answer is refused as the endpoint's
// failure, its connection closed rather than read on.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
const MaxAnswer = 64 << 20

// drainBody bounds what the endpoint reads of a body it refuses as too
// large, so that the client, still sending, reads the 413 rather than a
// reset connection; a longer body is cut off.
const drainBody = 4 * MaxBody

// Doer sends an HTTP request (an *http.Client, or a spec's testnet.Gate).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Config is what an endpoint forwards to and how it decides.
type Config struct {
	// Local is DynamoDB Local's endpoint, which answers every call the
	// emulator lets through.
	Local string
	// Off passes every call through as sent: DynamoDB Local's answers,
	// with no limits and no conflicts.
	Off bool
	// Limits configures each table's emulator (Scale, NoConflicts,
	// PlacementSeed...); its warm and maximum throughput come from the
	// table.
	Limits emulate.Config
	// HTTPClient sends to Local; default: kept-alive connections written
	// and read in the caller's goroutine (conns.go).
	HTTPClient Doer
	// Faults are the fault rules each data-plane call meets first, before
	// the emulator (faults.go); nil for none. Handler.Aim replaces them.
	Faults *fault.Set
}

// Handler serves DynamoDB's JSON protocol, forwarding to DynamoDB Local.
type Handler struct {
	cfg  Config
	http Doer
	db   *dynamodb.Client // to Local: one attempt, its answer captured

	mu      sync.Mutex
	tables  map[string]*table
	retired []*table // tables learnt again since: their traffic is still reported
	asked   map[string]asked

	stats Stats

	faults atomic.Pointer[fault.Set]
}

// New returns the handler of cfg.
func New(cfg Config) *Handler {
	h := &Handler{cfg: cfg, http: cfg.HTTPClient, tables: map[string]*table{}, asked: map[string]asked{}}
	if h.http == nil {
		h.http = newConns(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: testbed.DefaultMaxConns, MaxIdleConns: testbed.DefaultMaxConns}})
	}
	h.faults.Store(cfg.Faults)
	h.db = testbed.Client(cfg.Local, func(o *dynamodb.Options) {
		o.RetryMaxAttempts = 1 // retrying is the end client's job
		o.HTTPClient = h.http
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			if err := s.Serialize.Add(middleware.SerializeMiddlewareFunc("ddbharnessEndpointAsSent", asSent), middleware.After); err != nil {
				return err
			}
			if err := lean(s, cfg.Local); err != nil {
				return err
			}
			return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("ddbharnessEndpointCapture", capture), middleware.After)
		})
	})
	return h
}

// ServeHTTP answers one request as DynamoDB would: a data-plane call
// decided by its table's emulator, anything else as DynamoDB Local
// answers it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		// A request that finds a bug answers DynamoDB's 500, which SDKs
		// retry, rather than a dropped connection.
		if p := recover(); p != nil {
			internal(w, fmt.Errorf("the endpoint failed on this request: %v", p))
		}
	}()
	if r.Method == http.MethodGet && r.URL.Path == StatusPath {
		h.serveStatus(w)
		return
	}
	if r.ContentLength > MaxBody {
		tooLarge(w, r)
		return
	}
	body, err := readAll(io.LimitReader(r.Body, MaxBody+1), r.ContentLength)
	if err != nil {
		refuse(w, fmt.Sprintf("the request could not be read whole: %v", err))
		return
	}
	if len(body) > MaxBody {
		tooLarge(w, r)
		return
	}
	name, _ := strings.CutPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	if h.faulted(w, r, name, body) {
		return
	}
	h.serve(w, r, name, body)
}

// serve answers a request whose body is read: a data-plane call decided
// by its table's emulator, anything else as DynamoDB Local answers it.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	undecided := false
	if o, ok := dataPlane[name]; ok && !h.cfg.Off {
		var done bool
		if done, undecided = h.emulated(w, r, name, o, body); done {
			return
		}
	}
	h.pass(w, r, name, body, undecided)
}

// emulated sends a data-plane call through its table's client, or a call
// naming several tables (or a PartiQL batch) through each of its tables'
// (joint); false when it cannot (a body the SDK's input cannot hold, a
// table DynamoDB Local does not know), and the call passes through;
// undecided for a data-plane call DynamoDB would have metered (PartiQL the
// endpoint cannot map to its items), unless Local refuses it (pass).
func (h *Handler) emulated(w http.ResponseWriter, r *http.Request, name string, o operation, body []byte) (done, undecided bool) {
	in, names, err := o.decode(body)
	if err != nil {
		return false, partiQL(name)
	}
	for i, n := range names {
		names[i] = fault.TableName(n)
	}
	if names = distinct(names); len(names) > 1 || o.call == nil && o.bind == nil {
		return h.joint(w, r, name, in, body)
	}
	if len(names) == 0 {
		return false, partiQL(name)
	}
	byName(in)
	t, err := h.tableOf(r.Context(), names[0])
	if err != nil || t == nil {
		return false, false
	}
	got := &answer{asked: body, from: r.Header}
	if o.bind != nil {
		var as string
		var ok bool
		if in, as, ok = o.bind(in, t.schema); !ok {
			return false, true
		}
		o, got.target = dataPlane[as], name
	}
	ctx := context.WithValue(designs.WithPattern(r.Context(), designs.PatternID(name)), answerKey{}, got)
	start := time.Now()
	out, err := o.call(ctx, t.db, in)
	if got.unread != nil { // the call reached Local: not sent again
		internal(w, got.unread)
		return true, false
	}
	if got.status == 0 {
		// Nothing reached the wire: the SDK refused the input itself,
		// and DynamoDB Local says why in its own words.
		return false, partiQL(name)
	}
	status, _ := engine.Classify(err)
	if err == nil {
		status = uint16(got.status)
	}
	t.traffic.record(name, start, status, err)
	h.stats.count(partitionKeys(t, in), status == engine.StatusThrottled || unprocessed(out), designs.IsTransactionConflict(err))
	b, err := got.body, error(nil) // the client's own request went (a PartiQL call's target): Local's own answer
	if got.target == "" {
		b, err = askmore.Answer(name, got.body, body, got.sent)
	}
	if err == nil && got.split && out != nil {
		b, err = withUnprocessed(h.db, b, out)
	}
	if err != nil {
		internal(w, fmt.Errorf("the answer could not be given back as asked: %w", err))
		return true, false
	}
	write(w, got.status, got.header, b)
	return true, false
}

// pass sends the request to DynamoDB Local as the client sent it, and its
// answer back as Local gave it. A table's limits that a CreateTable,
// UpdateTable or DeleteTable changed are learnt again at its next call.
// undecided: a data-plane call the limits did not decide, counted apart
// unless Local refuses it as invalid (invalidPartiQL): DynamoDB refuses
// it so before reading an item, and it is counted a call charged nothing.
func (h *Handler) pass(w http.ResponseWriter, r *http.Request, name string, body []byte, undecided bool) {
	resp, err := h.forward(r, body)
	if err != nil {
		internal(w, err)
		return
	}
	if resp.status == http.StatusOK {
		h.learn(name, body)
	}
	if undecided && invalidPartiQL(resp.status, resp.body) {
		h.stats.count(nil, false, false)
	} else {
		h.stats.passed(undecided)
	}
	for k, vs := range resp.header {
		if k != "Content-Length" && k != "Connection" {
			w.Header()[k] = vs
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(resp.body)))
	w.WriteHeader(resp.status)
	w.Write(resp.body)
}

// response is an HTTP answer, read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// forward sends body to DynamoDB Local as the request r carries it (its
// path and headers), and reads Local's answer.
func (h *Handler) forward(r *http.Request, body []byte) (response, error) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, h.localURL(r), bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	for k, vs := range r.Header {
		if k != "Content-Length" && k != "Connection" {
			req.Header[k] = vs
		}
	}
	resp, err := h.http.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("DynamoDB Local did not answer: %w", err)
	}
	defer resp.Body.Close()
	b, err := readAnswer(resp.Body, resp.ContentLength, MaxAnswer)
	if err != nil {
		return response{}, err
	}
	return response{resp.StatusCode, resp.Header, b}, nil
}

// localURL is where a request to the endpoint goes on DynamoDB Local.
func (h *Handler) localURL(r *http.Request) string {
	return strings.TrimSuffix(h.cfg.Local, "/") + r.URL.RequestURI()
}

// learn notes a table call's effect on the table's limits.
func (h *Handler) learn(name string, body []byte) {
	var in any
	switch name {
	case "CreateTable":
		in = &dynamodb.CreateTableInput{}
	case "UpdateTable":
		in = &dynamodb.UpdateTableInput{}
	case "DeleteTable":
		in = &dynamodb.DeleteTableInput{}
	default:
		return
	}
	var named struct{ TableName string }
	if json.Unmarshal(body, &named) != nil {
		return
	}
	if decodeInput(body, in) != nil {
		in = nil // forgotten all the same; the throughput asked is not known
	}
	h.forget(fault.TableName(named.TableName), in)
}

// answer is the HTTP answer the call's one attempt got: DynamoDB Local's,
// or the emulator's refusal; and what was asked: the client's request
// body, and the SDK's text of the meter's request.
type answer struct {
	status int
	header http.Header
	body   []byte

	asked  []byte
	from   http.Header // the client's request headers: its credentials go on
	sent   []byte
	split  bool   // the emulator sent part of a batch: the rest is unprocessed
	unread error  // Local's answer could not be read (over MaxAnswer)
	target string // the client's operation, sent as it is (PartiQL) in place of the call decided
}

type answerKey struct{}

// asSent sends the client's request body as the client sent it, with
// only what the meter asked for besides or, where the emulator sent
// part of a batch, the part it sent (askmore.Request).
func asSent(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (middleware.SerializeOutput, middleware.Metadata, error) {
	got, _ := ctx.Value(answerKey{}).(*answer)
	req, ok := in.Request.(*smithyhttp.Request)
	if got == nil || !ok || designs.HarnessCall(ctx) || got.sent != nil || req.GetStream() == nil {
		return next.HandleSerialize(ctx, in)
	}
	sent, err := io.ReadAll(req.GetStream())
	if err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	if got.target != "" {
		got.sent = sent
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+got.target)
		if in.Request, err = req.SetStream(bytes.NewReader(got.asked)); err != nil {
			return middleware.SerializeOutput{}, middleware.Metadata{}, err
		}
		return next.HandleSerialize(ctx, in)
	}
	b, split, err := askmore.Request(got.asked, sent)
	if err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	got.sent, got.split = sent, split
	if in.Request, err = req.SetStream(bytes.NewReader(b)); err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	return next.HandleSerialize(ctx, in)
}

// capture keeps the raw answer of the endpoint's call (not the meter's
// own reads), under the SDK's deserializer, beside the wire.
func capture(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	got, _ := ctx.Value(answerKey{}).(*answer)
	r, _ := out.RawResponse.(*smithyhttp.Response)
	if got == nil || r == nil || designs.HarnessCall(ctx) || got.status != 0 {
		return out, md, err
	}
	b, rerr := readAnswer(r.Body, r.ContentLength, MaxAnswer)
	r.Body.Close()
	if rerr != nil {
		got.unread = rerr
		return out, md, rerr
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	got.status, got.header, got.body = r.StatusCode, r.Header, b // nothing changes the header after
	return out, md, err
}

// readAll is io.ReadAll of r, its buffer sized at first for size bytes
// (a body's Content-Length; -1 when unknown, and at most MaxBody) and the
// read that finds the end, so that a body of the size it says is read
// into one allocation.
func readAll(r io.Reader, size int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), MaxBody)) + bytes.MinRead)
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// readAnswer reads one of Local's answers whole, at most limit bytes; a
// longer one (by its Content-Length, size, or as read) is an error, and
// what is left of it unread.
func readAnswer(r io.Reader, size int64, limit int) ([]byte, error) {
	if size > int64(limit) {
		return nil, fmt.Errorf("DynamoDB Local's answer is %d bytes, over %d MiB, longer than any DynamoDB gives", size, limit>>20)
	}
	b, err := readAll(io.LimitReader(r, int64(limit)+1), size)
	if err != nil {
		return nil, fmt.Errorf("DynamoDB Local's answer was cut: %w", err)
	}
	if len(b) > limit {
		return nil, fmt.Errorf("DynamoDB Local's answer is over %d MiB, longer than any DynamoDB gives", limit>>20)
	}
	return b, nil
}

// write answers with status, the answer's headers and body b, whose
// length and CRC32 (which SDKs check) it states.
func write(w http.ResponseWriter, status int, header http.Header, b []byte) {
	for k, vs := range header {
		switch k {
		case "Content-Length", "Connection", "Content-Encoding", "X-Amz-Crc32":
		default:
			w.Header()[k] = vs
		}
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	if header.Get("X-Amzn-Requestid") == "" { // the endpoint's own answer
		w.Header().Set("X-Amzn-Requestid", emulate.RequestID())
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(b)), 10))
	w.WriteHeader(status)
	w.Write(b)
}

// refuse answers a request the endpoint cannot read, in DynamoDB's shape.
func refuse(w http.ResponseWriter, msg string) {
	b, _ := json.Marshal(map[string]string{"__type": "com.amazon.coral.validate#ValidationException", "message": msg})
	write(w, http.StatusBadRequest, nil, b)
}

// tooLarge answers a body over MaxBody with HTTP 413, as DynamoDB does,
// after reading what is left of it (bounded). The body is DynamoDB
// Local's own for it (AWS documents none).
func tooLarge(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, drainBody))
	write(w, http.StatusRequestEntityTooLarge, nil, []byte(`{"Message":""}`))
}

// internal answers a failure of the endpoint or of DynamoDB Local as
// DynamoDB answers its own (HTTP 500, which SDKs retry).
func internal(w http.ResponseWriter, err error) {
	serverError(w, http.StatusInternalServerError, "InternalServerError", "ddbharness endpoint: "+err.Error())
}

// serverError answers DynamoDB's HTTP 5xx status with its exception
// name and message.
func serverError(w http.ResponseWriter, status int, name, msg string) {
	b, _ := json.Marshal(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + name, "message": msg})
	write(w, status, nil, b)
}
