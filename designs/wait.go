package designs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TableState is how a table and its GSIs stand while it is created.
type TableState struct {
	Table   string
	Status  types.TableStatus
	Indexes []IndexState // GSIs, in the order DynamoDB lists them
	Waited  time.Duration
}

// IndexState is one GSI's status.
type IndexState struct {
	Name   string
	Status types.IndexStatus
}

// Active reports whether the table and every GSI are ACTIVE: only then does
// a GSI serve queries and take writes without back-pressure from its
// backfill.
func (t TableState) Active() bool {
	if t.Status != types.TableStatusActive {
		return false
	}
	for _, ix := range t.Indexes {
		if ix.Status != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// String reads "table CREATING, GSI1 CREATING".
func (t TableState) String() string {
	parts := []string{"table " + string(t.Status)}
	for _, ix := range t.Indexes {
		parts = append(parts, ix.Name+" "+string(ix.Status))
	}
	return strings.Join(parts, ", ")
}

// Polling bounds of WaitActive: DynamoDB Local answers at once, real
// DynamoDB takes seconds to minutes (a GSI backfills).
const (
	waitMinDelay = 50 * time.Millisecond
	waitMaxDelay = 2 * time.Second
	// progressEvery is how often an unchanged state is told again, so a
	// long wait still shows it is alive.
	progressEvery = 5 * time.Second
)

// WaitActive polls until the table and every GSI are ACTIVE, telling
// progress (nil: nobody) each change of state and every progressEvery
// otherwise. It gives up after tableWait, or when ctx ends.
func WaitActive(ctx context.Context, db Admin, name string, progress func(TableState)) error {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, tableWait)
	defer cancel()
	delay := waitMinDelay
	var told string
	var toldAt time.Time
	for {
		d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var missing *types.ResourceNotFoundException
		switch {
		case errors.As(err, &missing):
			// Eventually consistent: a table just created may not show yet.
		case err != nil:
			return fmt.Errorf("wait until active: %w", err)
		default:
			st := stateOf(d.Table, time.Since(began))
			if st.Active() {
				if progress != nil && told != "" {
					progress(st)
				}
				return nil
			}
			if progress != nil && (st.String() != told || time.Since(toldAt) >= progressEvery) {
				progress(st)
				told, toldAt = st.String(), time.Now()
			}
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("wait until active: not active after %s (last: %s)", tableWait, told)
			}
			return fmt.Errorf("wait until active: %w", ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, waitMaxDelay)
	}
}

func stateOf(t *types.TableDescription, waited time.Duration) TableState {
	st := TableState{Table: aws.ToString(t.TableName), Status: t.TableStatus, Waited: waited}
	for _, ix := range t.GlobalSecondaryIndexes {
		st.Indexes = append(st.Indexes, IndexState{Name: aws.ToString(ix.IndexName), Status: ix.IndexStatus})
	}
	return st
}
