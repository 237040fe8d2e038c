package pricing

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Write is one item a call wrote: its image before and after (nil when the
// item did not exist, or no longer does). A write whose condition failed
// has After equal to Before and Failed set, and Attempted the item it would
// have written (nil for a delete): it still costs capacity. A
// transaction's ConditionCheck is a Write with After equal to Before and
// Failed unset: DynamoDB charges it as a transactional write of the item.
type Write struct {
	Before, After ddbitem.Item
	Failed        bool
	Attempted     ddbitem.Item
	// Key is the primary key the write named. It places a write that found
	// no item and left none (a delete or condition check of a missing item)
	// on its partition; when both images are nil and Key is nil, the charge
	// lands on an unknown partition key ("").
	Key ddbitem.Item
}

// Evaluation says where the items a filtered or counting Query or Scan
// evaluated came from.
type Evaluation string

const (
	// EvaluatedReturned: the read has no filter and does not count, so it
	// evaluated what it returned.
	EvaluatedReturned Evaluation = ""
	// EvaluatedShadow: the client's shadow of the table named the items in
	// the range the read covered, as many as DynamoDB said it evaluated.
	EvaluatedShadow Evaluation = "shadow"
	// EvaluatedLocal: the evaluated items are not known; the call is
	// charged what DynamoDB Local reported for it.
	EvaluatedLocal Evaluation = "local"
)

// Observation is what one DynamoDB call did, as bench's instrumented client
// saw it. Reads lists every item a read evaluated (a Query's items before
// any filter or count; a GetItem's item, or none): whole items on the table, index
// entries on an index (an LSI read that also carries attributes the index
// does not project is charged for fetching each item from the table).
// Index names the index a Query or Scan read ("" for the table); Addressed
// names the keys a read named, so a key that found nothing is still
// charged on its partition (for a Query, its partition key alone). Local
// keeps DynamoDB Local's own ConsumedCapacity, to compare with what this
// package computes.
type Observation struct {
	At            time.Time
	Pattern       designs.PatternID // the pattern that made the call
	Op            designs.Operation
	Table         string
	Index         string
	Consistent    bool
	Transactional bool
	Reads         []ddbitem.Item
	Misses        int            // GetItem/BatchGetItem keys with no item: still charged
	Addressed     []ddbitem.Item // the keys (or Query partition key) the call named, when known
	Writes        []Write
	Local         []types.ConsumedCapacity
	// Filtered and Counted mark a Query or Scan with a FilterExpression or
	// Select=COUNT; Returned and Scanned are its Count and ScannedCount,
	// and Evaluated says where Reads came from.
	Filtered, Counted bool
	Returned, Scanned int
	Evaluated         Evaluation
}
