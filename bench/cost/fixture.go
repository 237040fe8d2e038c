package cost

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
	"github.com/ddbharness/ddbharness/workload"
)

// fixture is what the scenario's driver seeds, as DynamoDB would hold it,
// what seeding it cost, and the seeded driver and table, to run patterns on.
type fixture struct {
	keys   ddbitem.Schema
	items  []ddbitem.Item // as seeded, before any pattern ran
	seed   meter
	stored int64 // bytes billed for storage: items and index entries with their overhead
	bytes  int64 // the items' own bytes

	db     *memDB
	driver workload.Driver

	memo    map[string]float64        // per-call units already worked out, by what
	entries map[string][]ddbitem.Item // a target's entries in key order, by index name ("": the table)
}

// seedFixture seeds sc's pool through its driver into an in-memory table
// (memtable.Memory), as the design lint does (internal/lint's seedWith):
// the fixtures bench loads, with no DynamoDB. Every write and read-back
// the seed sends is charged as real DynamoDB would charge it. A driver
// that panics is an error naming the design, not a crash.
func seedFixture(ctx context.Context, sc workload.Scenario, rnd int64) (f *fixture, err error) {
	keys := sc.Design.Schema.ItemSchema()
	f = &fixture{keys: keys, memo: map[string]float64{}, entries: map[string][]ddbitem.Item{}}
	table := "cost-" + sc.Design.Name
	f.db = &memDB{keys: keys, to: &f.seed}
	f.db.Memory = memtable.NewMemory(keys, table, memtable.OnChange(f.db.changed))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cost %s: seed %d: the scenario driver's Seed panicked: %v", sc.Name, sc.Pool, p)
		}
	}()
	f.driver = sc.Driver(f.db, table, rnd)
	if err := f.driver.Seed(ctx, sc.Pool, nil); err != nil {
		return nil, fmt.Errorf("cost %s: seed %d: %w", sc.Name, sc.Pool, err)
	}
	f.items = f.db.Items()
	for _, it := range f.items {
		size := int64(ddbitem.Size(it))
		f.bytes += size
		f.stored += size + storageOverheadBytes
		for _, ix := range keys.Indexes {
			if e := keys.Entry(ix, it); e != nil {
				f.stored += int64(ddbitem.Size(e)) + storageOverheadBytes
			}
		}
	}
	return f, nil
}

// meter adds up the requests an in-memory table served and what real
// DynamoDB would charge for them (pricing.Account).
type meter struct {
	reads, writes int // items read by key, items written
	rru, wru      float64
}

// memDB is the in-memory table a seed writes to and patterns run on,
// charging to its meter every item write (Memory's OnChange) and every
// read by key (a fixtures.Loader reads back an item it no longer holds).
// Memory serves no Query, Scan, BatchGetItem or TransactGetItems: a pattern
// that needs one fails with memtable.ErrUnsupported.
type memDB struct {
	*memtable.Memory
	keys ddbitem.Schema
	mu   sync.Mutex // the seed writes and reads from several goroutines
	to   *meter
	tx   bool // writes are a transaction's: the table's part doubled
}

func (db *memDB) changed(c memtable.Change) {
	w := pricing.Write{Before: c.Before, After: c.After, Key: c.Write.Key}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.charge(pricing.Observation{Op: db.writeOp(), Writes: []pricing.Write{w}})
}

func (db *memDB) writeOp() designs.Operation {
	if db.tx {
		return designs.TransactWriteItems
	}
	return designs.BatchWriteItem
}

// charge adds what o costs to the meter; the caller holds mu.
func (db *memDB) charge(o pricing.Observation) {
	for _, c := range pricing.Account(db.keys, o) {
		db.to.rru += c.RCU
		db.to.wru += c.WCU
	}
	if len(o.Writes) > 0 {
		db.to.writes += len(o.Writes)
	} else {
		db.to.reads++
	}
}

func (db *memDB) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := db.Memory.GetItem(ctx, in, opts...)
	if err != nil {
		return out, err
	}
	o := pricing.Observation{Op: designs.GetItem, Consistent: aws.ToBool(in.ConsistentRead), Addressed: []ddbitem.Item{in.Key}}
	if out.Item != nil {
		o.Reads = []ddbitem.Item{out.Item}
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.charge(o)
	return out, nil
}

// TransactWriteItems charges its writes as a transaction's, and each
// ConditionCheck, which changes nothing Memory would tell, as a
// transactional write of the item it checked.
func (db *memDB) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	// The flag is the table's, not the call's: a seed's plain writes that
	// land meanwhile from another goroutine are charged doubled too.
	db.setTx(true)
	out, err := db.Memory.TransactWriteItems(ctx, in, opts...)
	db.setTx(false)
	if err != nil {
		return out, err
	}
	for _, action := range in.TransactItems {
		check := action.ConditionCheck
		if check == nil {
			continue
		}
		// Read without mu: Memory calls changed under its own lock.
		got, err := db.Memory.GetItem(ctx, &dynamodb.GetItemInput{TableName: check.TableName, Key: check.Key})
		if err != nil {
			return out, err
		}
		w := pricing.Write{Before: got.Item, After: got.Item, Key: check.Key}
		db.mu.Lock()
		db.charge(pricing.Observation{Op: designs.TransactWriteItems, Writes: []pricing.Write{w}})
		db.mu.Unlock()
	}
	return out, nil
}

func (db *memDB) setTx(on bool) {
	db.mu.Lock()
	db.tx = on
	db.mu.Unlock()
}

// metered runs call with the table charging to m.
func (db *memDB) metered(m *meter, call func() error) error {
	db.mu.Lock()
	prev := db.to
	db.to = m
	db.mu.Unlock()
	defer func() {
		db.mu.Lock()
		db.to = prev
		db.mu.Unlock()
	}()
	return call()
}

// sum adds up the read (or write) units of charges.
func sum(cs []pricing.Charge, reads bool) float64 {
	total := 0.0
	for _, c := range cs {
		if reads {
			total += c.RCU
		} else {
			total += c.WCU
		}
	}
	return total
}
