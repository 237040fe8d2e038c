package emulate

import (
	"context"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// creation emulates what DynamoDB Local skips: a table it creates is
// ACTIVE at once, while real DynamoDB reports it CREATING for seconds and
// each GSI CREATING a while longer (it backfills). With Config.Creating
// set, DescribeTable answers as the real service would for that long after
// the table was created through this client, so a caller's waiters and
// progress are exercised against DynamoDB Local. How long the real service
// takes is not published; the durations are the caller's.
type creation struct {
	mu      sync.Mutex
	created map[string]time.Time // table name: when CreateTable answered
}

// gsiLag is how much longer than the table its GSIs stay CREATING.
const gsiLag = 1.5

// emulateCreation is an Initialize middleware, installed only with
// Config.Creating set: it notes each CreateTable and rewrites the status
// DescribeTable returns while the table is young.
func (e *Emulator) emulateCreation(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleInitialize(ctx, in)
	if err != nil {
		return out, md, err
	}
	now := e.cfg.Now()
	c := &e.creation
	switch r := out.Result.(type) {
	case *dynamodb.CreateTableOutput:
		if r.TableDescription != nil {
			c.mu.Lock()
			if c.created == nil {
				c.created = map[string]time.Time{}
			}
			c.created[aws.ToString(r.TableDescription.TableName)] = now
			c.mu.Unlock()
			young := *r.TableDescription
			creatingStatus(&young, 0, e.cfg.Creating)
			r.TableDescription = &young
		}
	case *dynamodb.DescribeTableOutput:
		if r.Table == nil {
			break
		}
		c.mu.Lock()
		at, ok := c.created[aws.ToString(r.Table.TableName)]
		c.mu.Unlock()
		if ok && r.Table.TableStatus == types.TableStatusActive {
			t := *r.Table
			creatingStatus(&t, now.Sub(at), e.cfg.Creating)
			r.Table = &t
		}
	}
	return out, md, err
}

// creatingStatus sets a table's and its GSIs' status as they stand age
// after creation, for a table that takes d to create.
func creatingStatus(t *types.TableDescription, age, d time.Duration) {
	if age < d {
		t.TableStatus = types.TableStatusCreating
	}
	if age >= time.Duration(gsiLag*float64(d)) || len(t.GlobalSecondaryIndexes) == 0 {
		return
	}
	gsis := make([]types.GlobalSecondaryIndexDescription, len(t.GlobalSecondaryIndexes))
	copy(gsis, t.GlobalSecondaryIndexes)
	for i := range gsis {
		gsis[i].IndexStatus = types.IndexStatusCreating
	}
	t.GlobalSecondaryIndexes = gsis
}
