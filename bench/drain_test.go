package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// putsDB is just enough of DynamoDB for a run of puts: the table's life,
// and puts that write nothing and succeed.
type putsDB struct {
	designs.DB
	mu     sync.Mutex
	tables map[string]bool
}

func (f *putsDB) Options() dynamodb.Options {
	return dynamodb.Options{BaseEndpoint: aws.String("http://127.0.0.1:1")}
}

func (f *putsDB) CreateTable(_ context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tables[aws.ToString(in.TableName)] = true
	return &dynamodb.CreateTableOutput{}, nil
}

func (f *putsDB) DeleteTable(_ context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.tables, aws.ToString(in.TableName))
	return &dynamodb.DeleteTableOutput{}, nil
}

func (f *putsDB) DescribeTable(_ context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.tables[aws.ToString(in.TableName)] {
		return nil, &types.ResourceNotFoundException{Message: aws.String("no table")}
	}
	return &dynamodb.DescribeTableOutput{Table: &types.TableDescription{TableStatus: types.TableStatusActive}}, nil
}

func (f *putsDB) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return &dynamodb.PutItemOutput{}, nil
}

// twoPuts is a driver whose every call puts two small items (1 WCU each);
// every other call, after its first put, waits until the run cuts it.
type twoPuts struct {
	db    designs.DB
	table string
	n     atomic.Int64
}

func (*twoPuts) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (d *twoPuts) Call(ctx context.Context, _ designs.PatternID, _ int, _ *rand.Rand) error {
	n := d.n.Add(1)
	for i := range 2 {
		if i == 1 && n%2 == 0 {
			<-ctx.Done()
			return ctx.Err()
		}
		item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("K%d-%d", n, i)}}
		if _, err := d.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(d.table), Item: item}); err != nil {
			return err
		}
	}
	return nil
}

// TestDrainCutCallsAreNotCharged: a call the drain cuts short is counted
// in none of the pattern's calls, so what it consumed before the cut is
// not charged either: the units per call (charged over counted) stay
// those of a whole call, however many calls the drain cuts. Half the calls
// here put one item and are then cut; the others put two.
func TestDrainCutCallsAreNotCharged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := designs.Design{Name: "puts", Schema: designs.Schema{PK: "PK"},
			Patterns: []designs.Pattern{{ID: "AP-01", Name: "two puts", Op: designs.PutItem, Index: designs.MainTable}}}
		sc := workload.Scenario{Name: "puts/drain", Design: d, Pool: 1, Duration: 2 * time.Second,
			Pacer: vegeta.ConstantPacer{Freq: 10, Per: time.Second}, Mix: []workload.Step{{Pattern: "AP-01", Weight: 1}},
			Driver: func(db designs.DB, table string, _ int64) workload.Driver { return &twoPuts{db: db, table: table} }}
		out, err := Run(t.Context(), &putsDB{tables: map[string]bool{}}, sc, engine.Warmup(0), engine.Workers(50),
			engine.Drain(time.Second), engine.Progress(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		calls := int64(out.Patterns[0].Metrics.Requests)
		if calls == 0 || out.CutOff == 0 {
			t.Fatalf("%d calls counted, %d cut by the drain: the spec wants both", calls, out.CutOff)
		}
		var wcu float64
		for _, p := range out.Capacity.Patterns {
			wcu += p.WCU
		}
		if got := wcu / float64(calls); got != 2 {
			t.Errorf("%.0f WCU charged over %d calls counted (%d cut): %.2f a call, want 2", wcu, calls, out.CutOff, got)
		}
	})
}
