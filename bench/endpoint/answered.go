package endpoint

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/endpoint/askmore"
	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
)

// What the client is answered for a call decided in parts (joint.go):
// Local's answer to the request joined, as asked, with the endpoint's own
// decisions put in it.

// answered is the client's answer to call name: Local's to the request
// joined, as asked, with the endpoint's decisions in it; or, when none
// was sent, the endpoint's refusal.
func (h *Handler) answered(name string, body []byte, ps []*part, send bool, combined []byte, answer response) (int, http.Header, []byte, error) {
	if isTransaction(name) {
		// A part its emulator refused, before the wire or after (a read
		// a write met in flight): the whole transaction is cancelled.
		var refused bool
		for _, p := range ps {
			refused = refused || !p.arrived || p.got.status != p.handed
		}
		if refused {
			if b, ok := cancelledWhole(ps); ok {
				return http.StatusBadRequest, nil, b, nil
			}
			for _, p := range ps {
				if !p.arrived || p.got.status != p.handed {
					return p.got.status, p.got.header, p.got.body, nil
				}
			}
		}
	}
	if !send {
		if name == "BatchExecuteStatement" {
			b, err := withRefusedStatements([]byte(`{"Responses":[]}`), ps)
			return http.StatusOK, nil, b, err
		}
		p := ps[0] // a batch refused on every table: as the first refused it
		return p.got.status, p.got.header, p.got.body, nil
	}
	b := answer.body
	var err error
	if name != "BatchExecuteStatement" && name != "ExecuteTransaction" {
		if b, err = askmore.Answer(name, b, body, combined); err != nil {
			return 0, nil, nil, err
		}
	}
	if answer.status != http.StatusOK {
		return answer.status, answer.header, b, nil
	}
	switch name {
	case "BatchExecuteStatement":
		for _, p := range ps {
			if !p.arrived {
				b, err = withRefusedStatements(b, ps)
				break
			}
		}
	case "BatchWriteItem", "BatchGetItem":
		if out, held := unprocessedAll(name, ps); held {
			b, err = withUnprocessed(h.db, b, out)
		}
	}
	return answer.status, answer.header, b, err
}

// unprocessedAll is a batch's unprocessed requests, every table's: what
// each part sent got back (Local's, and what its emulator held back),
// and all of a part refused whole; held is false when Local's answer has
// them all already.
func unprocessedAll(name string, ps []*part) (out smithy.Serializable, held bool) {
	w, g := &dynamodb.BatchWriteItemOutput{}, &dynamodb.BatchGetItemOutput{}
	for _, p := range ps {
		held = held || !p.arrived || p.got.split
		switch o := p.out.(type) {
		case *dynamodb.BatchWriteItemOutput:
			w.UnprocessedItems = mergeMap(w.UnprocessedItems, o.UnprocessedItems)
		case *dynamodb.BatchGetItemOutput:
			g.UnprocessedKeys = mergeMap(g.UnprocessedKeys, o.UnprocessedKeys)
		}
		if p.arrived {
			continue
		}
		switch in := p.in.(type) {
		case *dynamodb.BatchWriteItemInput:
			w.UnprocessedItems = mergeMap(w.UnprocessedItems, in.RequestItems)
		case *dynamodb.BatchGetItemInput:
			g.UnprocessedKeys = mergeMap(g.UnprocessedKeys, in.RequestItems)
		}
	}
	if name == "BatchGetItem" {
		return g, held
	}
	return w, held
}

func mergeMap[V any](a, b map[string]V) map[string]V {
	if a == nil {
		a = map[string]V{}
	}
	for k, v := range b {
		a[k] = v
	}
	return a
}

// cancelledWhole is the cancellation of a transaction some of whose
// parts their emulators refused: each refused action with the reason its
// table's emulator gave, None for every other; false when a refusal holds
// no reasons to place.
func cancelledWhole(ps []*part) ([]byte, bool) {
	n := 0
	for _, p := range ps {
		for _, at := range p.at {
			n = max(n, at+1)
		}
	}
	reasons := make([]json.RawMessage, n)
	for i := range reasons {
		reasons[i] = json.RawMessage(`{"Code":"None"}`)
	}
	for _, p := range ps {
		if p.arrived && p.got.status == p.handed {
			continue
		}
		var tce struct {
			Reasons []json.RawMessage `json:"CancellationReasons"`
		}
		if json.Unmarshal(p.got.body, &tce) != nil || len(tce.Reasons) != len(p.at) {
			return nil, false
		}
		for i, at := range p.at {
			reasons[at] = tce.Reasons[i]
		}
	}
	return emulate.CancelledWith(reasons), true
}

// statementCodes are the Error codes a BatchExecuteStatement's response
// gives a statement refused with each exception: the codes of
// BatchStatementError that name a throttle and a conflict, each limit's
// the one a transaction's cancellation reasons give it (inferred: AWS
// lists the codes without saying which limit gives which).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchStatementError.html
var statementCodes = map[string]string{
	emulate.ExceptionThrottling:    "ThrottlingError",
	emulate.ExceptionProvisioned:   "ProvisionedThroughputExceeded",
	emulate.ExceptionRequestLimit:  "RequestLimitExceeded",
	"TransactionConflictException": "TransactionConflict",
}

// withRefusedStatements is a BatchExecuteStatement's answer b (Local's,
// to the statements sent) with an Error response in the place of each
// statement its emulator refused, as DynamoDB answers a statement that
// failed: its Code and Message, and its table.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
// (an HTTP 200 whose Responses carry each failed statement's Error)
func withRefusedStatements(b []byte, ps []*part) ([]byte, error) {
	bo, err := jsontext.ParseObject(b)
	if err != nil {
		return nil, err
	}
	sent, err := jsontext.ParseArray(bo.Get("Responses"))
	if err != nil {
		return nil, err
	}
	var all [][]byte
	for _, p := range ps {
		if p.arrived {
			if len(sent) == 0 {
				return nil, fmt.Errorf("Responses: fewer than the statements sent")
			}
			all, sent = append(all, sent[0]), sent[1:]
			continue
		}
		var refusal struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		json.Unmarshal(p.got.body, &refusal)
		exception := refusal.Type[strings.LastIndexByte(refusal.Type, '#')+1:]
		code := statementCodes[exception]
		if code == "" {
			code = "InternalServerError"
		}
		type statementError struct {
			Message string `json:"Message"`
			Code    string `json:"Code"`
		}
		el, _ := json.Marshal(struct {
			Error     statementError `json:"Error"`
			TableName string         `json:"TableName"`
		}{statementError{refusal.Message, code}, p.t.name})
		all = append(all, el)
	}
	return bo.Apply(jsontext.Edit{Set: map[string][]byte{"Responses": jsontext.JoinArray(all)}}), nil
}
