// Package capacity turns what a run's DynamoDB calls did into the capacity
// real DynamoDB would charge, attributed to table and index partitions, and
// models where that traffic would throttle.
package capacity

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Image is a whole item as DynamoDB stores it; nil means no item.
type Image = map[string]types.AttributeValue

// Write is one item a call wrote: its image before and after (nil when the
// item did not exist, or no longer does). A write whose condition failed
// has After equal to Before and Failed set: it still costs capacity.
type Write struct {
	Before, After Image
	Failed        bool
}

// Observation is what one DynamoDB call did, as bench's instrumented client
// saw it. Reads lists every item a read evaluated (a Query's items before
// any filter; a GetItem's item, or none), Index names the index a Query or
// Scan read ("" for the table); Addressed names the partition a read that
// found nothing still touched. Local keeps DynamoDB Local's own
// ConsumedCapacity, to compare with what this package computes.
type Observation struct {
	At            time.Time
	Pattern       designs.PatternID // the pattern that made the call
	Op            designs.Operation
	Table         string
	Index         string
	Consistent    bool
	Transactional bool
	Reads         []Image
	Misses        int     // GetItem/BatchGetItem keys with no item: still charged
	Addressed     []Image // the keys (or Query partition key) the call named, when known
	Writes        []Write
	Local         []types.ConsumedCapacity
}
