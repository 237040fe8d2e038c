package emulate

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// Install adds the emulator to an SDK client's options:
//
//	dynamodb.New(opts, e.Install)
//
// A call is decided before each attempt, inside the SDK's retry loop, so a
// refusal reaches the retryer as DynamoDB's own answer would.
func (e *Emulator) Install(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
		if err := s.Initialize.Add(middleware.InitializeMiddlewareFunc("ddbharnessLimits", e.initialize), middleware.After); err != nil {
			return err
		}
		if e.cfg.Creating > 0 {
			if err := s.Initialize.Add(middleware.InitializeMiddlewareFunc("ddbharnessCreation", e.emulateCreation), middleware.After); err != nil {
				return err
			}
		}
		// Last in the deserialize step: between the SDK's deserializer and
		// the wire, so a refusal is parsed as DynamoDB's answer is.
		return s.Deserialize.Add(middleware.DeserializeMiddlewareFunc("ddbharnessLimitsAttempt", e.attempt), middleware.After)
	})
}

type callKey struct{}

// initialize follows one call across its attempts. A batch is split here,
// once, as DynamoDB splits it: the items whose partitions have nothing
// left come back unprocessed, unless none is left, when the whole batch is
// refused (and retried by the SDK).
func (e *Emulator) initialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	if !e.on.Load() || designs.HarnessCall(ctx) {
		return next.HandleInitialize(ctx, in)
	}
	c := e.newCall(ctx, in.Parameters)
	if c == nil {
		return next.HandleInitialize(ctx, in)
	}
	var putBack func(out any)
	if c.groups != nil && !c.tx {
		in.Parameters, putBack = e.split(c, in.Parameters)
	}
	out, md, err := next.HandleInitialize(middleware.WithStackValue(ctx, callKey{}, c), in)
	if err == nil {
		c.last = nil
		if putBack != nil {
			putBack(out.Result)
		}
	}
	if c.conflicted { // looked up only for the few calls that end so
		c.resent = designs.ResentOnConflict(ctx)
	}
	e.end(c)
	return out, md, err
}

// attempt decides one attempt: let through to DynamoDB, or answered with
// DynamoDB's refusal.
func (e *Emulator) attempt(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	c, _ := middleware.GetStackValue(ctx, callKey{}).(*call)
	if c == nil {
		return next.HandleDeserialize(ctx, in)
	}
	c.attempts++
	if c.decided {
		return e.through(ctx, c, in, next)
	}
	e.mu.Lock()
	now := e.now() // under the lock: calls reach the engine in time order
	// A conflict is decided first, and costs nothing: which DynamoDB
	// checks first AWS does not say (inferred).
	var r *refusal
	var actions []bool
	hit := e.conflicts(c, now)
	if hit == nil {
		r, actions = e.decide(c, now)
	}
	c.last, c.conflicted = r, hit != nil
	e.m.attempted(c, now)
	if hit != nil {
		e.m.conflicted(c, hit)
	} else if r != nil {
		e.m.refused(r, c.pattern, now)
	} else {
		if c.held == nil {
			c.held = e.reserve(c.touches, now, c.held)
		}
		e.hold(c, now)
	}
	e.mu.Unlock()
	if r == nil && hit == nil {
		return e.sent(ctx, c, in, next)
	}
	var body []byte
	switch {
	case hit != nil:
		body = conflictBody(c, hit)
	case c.tx:
		body = cancellation(len(c.groups), actions, r)
	default:
		body = refusalBody(r)
	}
	return middleware.DeserializeOutput{RawResponse: response(body)}, middleware.Metadata{}, nil
}

// through sends an attempt no throttle decides (a batch already split),
// its items in flight meanwhile.
func (e *Emulator) through(ctx context.Context, c *call, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	if e.cfg.NoConflicts || len(c.items) == 0 {
		return next.HandleDeserialize(ctx, in)
	}
	e.mu.Lock()
	e.hold(c, e.now())
	e.mu.Unlock()
	return e.sent(ctx, c, in, next)
}

// sent sends an attempt whose items are in flight (hold), and ends their
// flight when the answer comes.
func (e *Emulator) sent(ctx context.Context, c *call, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	if e.cfg.NoConflicts || len(c.items) == 0 {
		return out, md, err
	}
	e.mu.Lock()
	e.release(c)
	met := c.met // the items writes met while this TransactGetItems was in flight
	c.met = nil
	// DynamoDB cancels such a read where DynamoDB Local answered it; an
	// error answer stands.
	var r *smithyhttp.Response
	if met != nil && err == nil {
		r, _ = out.RawResponse.(*smithyhttp.Response)
	}
	cancel := r != nil && r.StatusCode == http.StatusOK
	if cancel {
		c.conflicted = true
		e.m.conflicted(c, met)
	}
	e.mu.Unlock()
	if !cancel {
		return out, md, err
	}
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return middleware.DeserializeOutput{RawResponse: response(conflictBody(c, met))}, md, nil
}

// decide is one attempt's refusal, nil to let it through; for a
// transaction, also which actions were refused. Call with e.mu held.
func (e *Emulator) decide(c *call, now int64) (*refusal, []bool) {
	switch {
	case c.tx:
		var first *refusal
		refused := make([]bool, len(c.groups))
		for i, g := range c.groups {
			if r := e.admit(g, now); r != nil {
				refused[i] = true
				if first == nil {
					first = r
				}
			}
		}
		return first, refused
	case c.whole:
		var first *refusal
		for _, g := range c.groups {
			r := e.admit(g, now)
			if r == nil {
				// Approximation: the SDK resends the whole batch, which
				// cannot be split again here; once any item has units
				// again, all go through, and their partitions go into debt.
				return nil, nil
			}
			if first == nil {
				first = r
			}
		}
		return first, nil
	}
	return e.admit(c.touches, now), nil
}

// split decides a batch's items once: it returns the request to send (the
// admitted items) and what puts the refused ones back as unprocessed.
func (e *Emulator) split(c *call, params any) (any, func(out any)) {
	e.mu.Lock()
	now := e.now() // under the lock: calls reach the engine in time order
	refused := make([]bool, len(c.groups))
	n := 0
	var refusals []*refusal
	var held []reservation
	estimated := map[touch]bool{}
	for i, g := range c.groups {
		if r := e.admit(g, now); r != nil {
			refused[i] = true
			refusals = append(refusals, r)
			n++
			continue
		}
		// Items are admitted one by one, as DynamoDB processes a batch's
		// items: each holds its units before the next is decided, so the
		// items a hot partition has no units left for come back
		// unprocessed instead of all passing on its last unit.
		// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
		// (the operation "returns any unprocessed items"; only when none can
		// be processed does the whole batch fail)
		// A touch whose units are unknown holds the estimate of a whole
		// call on its key, once per batch.
		for _, tc := range g {
			if tc.units == 0 {
				k := tc
				if estimated[k] {
					continue
				}
				estimated[k] = true
			}
			held = e.reserve([]touch{tc}, now, held)
		}
	}
	if n < len(c.groups) {
		// Split: the refused items are counted here; a batch refused whole
		// (which holds nothing) is counted by its attempts.
		c.held = held
		for _, r := range refusals {
			e.m.refused(r, c.pattern, now)
		}
	}
	e.mu.Unlock()
	switch {
	case n == 0:
		c.decided = true
		return params, nil
	case n == len(c.groups):
		c.whole = true
		return params, nil
	}
	c.decided, c.unprocessed = true, n
	switch p := params.(type) {
	case *dynamodb.BatchWriteItemInput:
		send, back := splitWrites(p, refused)
		return send, func(out any) {
			if o, ok := out.(*dynamodb.BatchWriteItemOutput); ok {
				o.UnprocessedItems = mergeWrites(o.UnprocessedItems, back)
			}
		}
	case *dynamodb.BatchGetItemInput:
		send, back := splitGets(p, refused)
		return send, func(out any) {
			if o, ok := out.(*dynamodb.BatchGetItemOutput); ok {
				o.UnprocessedKeys = mergeGets(o.UnprocessedKeys, back)
			}
		}
	}
	return params, nil
}

// splitWrites divides a BatchWriteItem's requests, in newCall's order
// (tables sorted).
func splitWrites(p *dynamodb.BatchWriteItemInput, refused []bool) (*dynamodb.BatchWriteItemInput, map[string][]types.WriteRequest) {
	send, back := *p, map[string][]types.WriteRequest{}
	send.RequestItems = map[string][]types.WriteRequest{}
	i := 0
	for _, table := range tables(p.RequestItems) {
		for _, w := range p.RequestItems[table] {
			if w.PutRequest == nil && w.DeleteRequest == nil {
				continue
			}
			if refused[i] {
				back[table] = append(back[table], w)
			} else {
				send.RequestItems[table] = append(send.RequestItems[table], w)
			}
			i++
		}
	}
	return &send, back
}

func mergeWrites(a, b map[string][]types.WriteRequest) map[string][]types.WriteRequest {
	if a == nil {
		a = map[string][]types.WriteRequest{}
	}
	for t, ws := range b {
		a[t] = append(a[t], ws...)
	}
	return a
}

// splitGets divides a BatchGetItem's keys, in newCall's order (tables
// sorted).
func splitGets(p *dynamodb.BatchGetItemInput, refused []bool) (*dynamodb.BatchGetItemInput, map[string]types.KeysAndAttributes) {
	send, back := *p, map[string]types.KeysAndAttributes{}
	send.RequestItems = map[string]types.KeysAndAttributes{}
	i := 0
	for _, table := range tables(p.RequestItems) {
		ka := p.RequestItems[table]
		keep, drop := ka, ka
		keep.Keys, drop.Keys = nil, nil
		for _, k := range ka.Keys {
			if refused[i] {
				drop.Keys = append(drop.Keys, k)
			} else {
				keep.Keys = append(keep.Keys, k)
			}
			i++
		}
		if len(keep.Keys) > 0 {
			send.RequestItems[table] = keep
		}
		if len(drop.Keys) > 0 {
			back[table] = drop
		}
	}
	return &send, back
}

func mergeGets(a, b map[string]types.KeysAndAttributes) map[string]types.KeysAndAttributes {
	if a == nil {
		a = map[string]types.KeysAndAttributes{}
	}
	for t, ka := range b {
		if have, ok := a[t]; ok {
			have.Keys = append(have.Keys, ka.Keys...)
			a[t] = have
			continue
		}
		a[t] = ka
	}
	return a
}

// DynamoDB's wire: an error is HTTP 400 with the exception's name in
// __type and its members in a JSON body.
// Source: the SDK's response snapshots of these exceptions
// (service/dynamodb/response_snapshot in aws-sdk-go-v2).
const typePrefix = "com.amazonaws.dynamodb.v20120810#"

// Messages DynamoDB gives a refusal for capacity, by billing mode and by
// table or GSI: AWS lists the four wordings of a provisioned and an
// on-demand table and GSI with the cancellation reasons of a transaction,
// and the provisioned ones are seen on the wire (the GSI's without a
// closing full stop). Over an on-demand maximum, the error handling page's
// message of ThrottlingException; at the account's quota, its message of
// RequestLimitExceeded (no capture of either reason's own is public).
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
// (TransactionCanceledException: the messages of ProvisionedThroughputExceeded and ThrottlingError)
// https://github.com/apache/hadoop/pull/1814 (a provisioned table's, captured)
// https://github.com/wellcomecollection/platform/issues/2177 (a provisioned GSI's, captured)
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
const (
	messageProvisionedTable = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	messageProvisionedIndex = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
	messageOnDemandTable    = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html."
	messageOnDemandIndex    = "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly."
	messageMaxOnDemand      = "Rate of requests exceeds the allowed throughput."
	messageAccountLimit     = "Throughput exceeds the current throughput limit for your account, increase account level throughput before retrying."
)

// message is the text r answers with: its limit's, else its space's
// billing mode's, for a table or a GSI.
func message(r *refusal) string {
	return throttleMessage(r.reason, r.space.index, r.space.OnDemand())
}

// throttleMessage is the text of a refusal for reason (as
// throughput.Reason builds it), on a GSI or a table, on demand or
// provisioned.
func throttleMessage(reason string, index, onDemand bool) string {
	switch {
	case strings.HasSuffix(reason, throughput.MaxOnDemand):
		return messageMaxOnDemand
	case strings.HasSuffix(reason, throughput.AccountLimit):
		return messageAccountLimit
	case !onDemand && index:
		return messageProvisionedIndex
	case !onDemand:
		return messageProvisionedTable
	case index:
		return messageOnDemandIndex
	}
	return messageOnDemandTable
}

type wireReason struct {
	Reason   string `json:"reason"`
	Resource string `json:"resource"`
}

// refusalBody is the exception r answers with.
func refusalBody(r *refusal) []byte {
	return Throttle{Exception: r.exception, Reason: r.reason, Resource: r.space.arn, Index: r.space.index, OnDemand: r.space.OnDemand()}.Body()
}

// Throttle is a refusal for throughput in DynamoDB's words: the
// exception (ExceptionThrottling, ExceptionProvisioned or
// ExceptionRequestLimit), its one throttling reason (throughput.Reason)
// on Resource (a table's or GSI's ARN), and the billing mode and target
// its message names. The emulator answers with it, and so do the
// endpoint's fault rules: one spelling.
type Throttle struct {
	Exception, Reason, Resource string
	Index, OnDemand             bool
}

// Body is t's HTTP 400 body. ThrottlingException spells its reasons'
// member throttlingReasons, ProvisionedThroughputExceeded and
// RequestLimitExceeded ThrottlingReasons (the SDK's schemas of the three).
func (t Throttle) Body() []byte {
	reasons := []wireReason{{t.Reason, t.Resource}}
	msg := throttleMessage(t.Reason, t.Index, t.OnDemand)
	var v any = struct {
		Type    string       `json:"__type"`
		Message string       `json:"message"`
		Reasons []wireReason `json:"ThrottlingReasons"`
	}{typePrefix + t.Exception, msg, reasons}
	if t.Exception == ExceptionThrottling {
		v = struct {
			Type    string       `json:"__type"`
			Message string       `json:"message"`
			Reasons []wireReason `json:"throttlingReasons"`
		}{typePrefix + t.Exception, msg, reasons}
	}
	b, _ := json.Marshal(v)
	return b
}

type wireCancellation struct {
	Code    string `json:"Code"`
	Message string `json:"Message,omitempty"`
}

// cancellation is a transaction of n actions cancelled because the
// actions refused had no units left: ThrottlingError for them (or
// ProvisionedThroughputExceeded, a provisioned budget's), None for the
// others.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html (cancellation reasons)
func cancellation(n int, refused []bool, r *refusal) []byte {
	code := "ThrottlingError"
	if strings.HasSuffix(r.reason, "ProvisionedThroughputExceeded") {
		code = "ProvisionedThroughputExceeded"
	}
	reasons := make([]wireCancellation, n)
	codes := make([]string, n)
	for i := range reasons {
		reasons[i].Code = "None"
		if i < len(refused) && refused[i] {
			reasons[i] = wireCancellation{code, message(r)}
		}
		codes[i] = reasons[i].Code
	}
	return cancelledBody(reasons, codes)
}

// cancelledBody is TransactionCanceledException with reasons, one per
// action, codes their codes.
func cancelledBody[R any](reasons []R, codes []string) []byte {
	b, _ := json.Marshal(struct {
		Type    string `json:"__type"`
		Message string `json:"Message"`
		Reasons []R    `json:"CancellationReasons"`
	}{typePrefix + "TransactionCanceledException",
		"Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]", reasons})
	return b
}

// CancelledWith is TransactionCanceledException with reasons, each one
// action's CancellationReason as JSON, written as the emulator writes its
// own: for a transaction whose actions several tables' emulators decided
// (package endpoint).
func CancelledWith(reasons []json.RawMessage) []byte {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		var c struct{ Code string }
		json.Unmarshal(r, &c)
		codes[i] = c.Code
	}
	return cancelledBody(reasons, codes)
}

// RequestID is a request id as DynamoDB writes them in
// x-amzn-RequestId: 52 characters, upper-case letters and digits (as
// captured on the wire, for one in the sources of the messages above).
func RequestID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [52]byte
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b[:])
}

// response is DynamoDB's HTTP answer with an error body.
func response(body []byte) *smithyhttp.Response {
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-Requestid", RequestID())
	return &smithyhttp.Response{Response: &http.Response{
		StatusCode: http.StatusBadRequest, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
	}}
}

// Cancelled is TransactionCanceledException with one reason per action,
// codes[i] the code of action i: "None" for an action that did not
// cancel the transaction, "TransactionConflict" or "ThrottlingError" (an
// on-demand table's) for one that did, each with DynamoDB's message for
// it. The emulator's cancellations and the endpoint's fault rules share
// it.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html (cancellation reasons)
func Cancelled(codes []string) []byte {
	reasons := make([]wireCancellation, len(codes))
	for i, c := range codes {
		reasons[i].Code = c
		switch c {
		case "TransactionConflict":
			reasons[i].Message = conflictMessage
		case "ThrottlingError":
			reasons[i].Message = messageOnDemandTable
		case "ProvisionedThroughputExceeded":
			reasons[i].Message = messageProvisionedTable
		}
	}
	return cancelledBody(reasons, codes)
}

// ConflictBody is TransactionConflictException, DynamoDB's answer to a
// PutItem, UpdateItem or DeleteItem of an item an ongoing transaction
// holds.
func ConflictBody() []byte {
	b, _ := json.Marshal(struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}{typePrefix + "TransactionConflictException", conflictMessage})
	return b
}
