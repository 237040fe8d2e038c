package engine_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// fakeDB is just enough of DynamoDB for the engine's own mechanics: table
// creation and deletion on a loopback endpoint. Drivers of these specs make
// no calls, so the pattern calls are left out (nil: they would panic).
type fakeDB struct {
	designs.DB
	endpoint string
	mu       sync.Mutex
	tables   map[string]bool
}

func newFakeDB() *fakeDB { return &fakeDB{endpoint: "http://127.0.0.1:1", tables: map[string]bool{}} }

func (f *fakeDB) Options() dynamodb.Options {
	return dynamodb.Options{BaseEndpoint: aws.String(f.endpoint)}
}

func (f *fakeDB) CreateTable(_ context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tables[aws.ToString(in.TableName)] = true
	return &dynamodb.CreateTableOutput{}, nil
}

func (f *fakeDB) DeleteTable(_ context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.tables, aws.ToString(in.TableName))
	return &dynamodb.DeleteTableOutput{}, nil
}

func (f *fakeDB) DescribeTable(_ context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.tables[aws.ToString(in.TableName)] {
		return nil, &types.ResourceNotFoundException{Message: aws.String("no table")}
	}
	return &dynamodb.DescribeTableOutput{Table: &types.TableDescription{TableStatus: types.TableStatusActive}}, nil
}

func (f *fakeDB) tableCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.tables)
}

// sleeper is a driver whose every call takes the same time and succeeds,
// or, with pause 0, returns at once: the engine's overhead alone.
type sleeper struct{ pause time.Duration }

func (sleeper) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (s sleeper) Call(ctx context.Context, _ designs.PatternID, _ int, _ *rand.Rand) error {
	if s.pause == 0 {
		return nil
	}
	select {
	case <-time.After(s.pause):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fakeDesign is one pattern on a one-key table, for scenarios of sleepers.
var fakeDesign = designs.Design{Name: "fake", Schema: designs.Schema{PK: "PK"},
	Patterns: []designs.Pattern{{ID: "AP-01", Name: "call", Op: designs.GetItem, Index: designs.MainTable}}}

func sleeping(pause time.Duration, pacer workload.Scenario) workload.Scenario {
	pacer.Name, pacer.Design, pacer.Pool = "fake/sleep", fakeDesign, 1
	pacer.Mix = []workload.Step{{Pattern: "AP-01", Weight: 1}}
	pacer.Driver = func(designs.DB, string, int64) workload.Driver { return sleeper{pause} }
	return pacer
}

// pooled is a driver with two kinds of entity, 1,000 "many" and 3 "few",
// that notes the largest key each pattern got.
type pooled struct {
	mu  sync.Mutex
	top map[designs.PatternID]int
}

func (*pooled) Seed(_ context.Context, n int, progress func(done, total int)) error {
	progress(n, n)
	return nil
}

func (*pooled) Pools() workload.Pools { return workload.Pools{"many": 1000, "few": 3} }

func (p *pooled) Call(_ context.Context, id designs.PatternID, key int, _ *rand.Rand) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.top[id] = max(p.top[id], key)
	return nil
}

// twoPools is fakeDesign with a second pattern, AP-02.
var twoPools = designs.Design{Name: fakeDesign.Name, Schema: fakeDesign.Schema,
	Patterns: append(slices.Clone(fakeDesign.Patterns), designs.Pattern{ID: "AP-02", Name: "other", Op: designs.GetItem, Index: designs.MainTable})}
