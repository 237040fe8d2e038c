package emulate

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/keytab"
	"github.com/ddbharness/ddbharness/internal/spill"
)

// DefaultIsolateAfter is how long a partition stays hot before the
// emulator isolates its hottest partition key value
// (throughput.DefaultIsolateAfter).
const DefaultIsolateAfter = throughput.DefaultIsolateAfter

// Config is what the emulator needs beyond the schema.
type Config struct {
	// Settings is the engine's configuration of each table and GSI
	// beyond the schema (throughput.ConfigOf), which the capacity model
	// carries to replay the run alike.
	throughput.Settings
	// NoConflicts turns transaction conflicts off (see conflict.go), which
	// are emulated with the throttling otherwise.
	NoConflicts bool
	// Holds bounds how long a call's items count as in flight, for
	// conflicts: its pattern's hold on real DynamoDB (Holds.Of, the
	// capacity model's figure; zero, rules.DefaultTransactionHold), not
	// its time on the test bed, which grows with the machine's load.
	Holds capacity.Holds
	// Region and Account make the ARNs of throttling reasons; defaults
	// "ddblocal" and "000000000000", as DynamoDB Local's.
	Region, Account string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Creating, when above 0, is how long a table created through the
	// client reads CREATING (and its GSIs half as long again): what real
	// DynamoDB does and DynamoDB Local does not. See creation.
	Creating time.Duration
	// Keys numbers the partition key values the emulator follows; others
	// naming the same values (bench's capacity ledger) may share it. A new
	// table when nil.
	Keys *keytab.Numbering
}

// Emulator throttles the calls of one design's tables. It is off until
// Enable; all methods are safe for concurrent use.
type Emulator struct {
	cfg    Config
	schema designs.Schema
	item   ddbitem.Schema
	on     atomic.Bool
	lookup atomic.Pointer[func(table string, key ddbitem.Item) ddbitem.Item]

	creation creation

	mu        sync.Mutex
	tables    map[string]*table
	names     *keytab.Numbering
	estimates *spill.Map[keySlot, [2]float64] // what a call lately consumed per value and side
	inflight  map[string][]*call              // the requests in flight on each item, for conflicts
	m         measure
}

// New returns an emulator, off, for the tables of schema s.
func New(s designs.Schema, cfg Config) *Emulator {
	cfg.Scale = throughput.Scale(cfg.Scale)
	if cfg.IsolateAfter == 0 {
		cfg.IsolateAfter = DefaultIsolateAfter
	}
	if cfg.Region == "" {
		cfg.Region = "ddblocal"
	}
	if cfg.Account == "" {
		cfg.Account = "000000000000"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Keys == nil {
		cfg.Keys = keytab.New()
	}
	return &Emulator{cfg: cfg, schema: s, item: s.ItemSchema(), tables: map[string]*table{}, names: cfg.Keys, inflight: map[string][]*call{},
		estimates: spill.New[keySlot, [2]float64](keyRows), m: newMeasure()}
}

// keyRows is how many per-value estimates, and per-value units of each
// partition, the emulator keeps in memory, about; the rest go to a file, so
// a run creating keys at every call keeps its heap.
const keyRows = 8192

// keySlot is a partition key value of a target by the ids of their texts
// in the emulator's names.
type keySlot struct{ target, key uint32 }

// Enable starts throttling (and measuring) from now on; Disable stops.
func (e *Emulator) Enable()  { e.on.Store(true) }
func (e *Emulator) Disable() { e.on.Store(false) }

// Scale is the scale in force.
func (e *Emulator) Scale() float64 { return e.cfg.Scale }

// Settings is how the emulator configures the engine beyond the schema
// (throughput.ConfigOf): what a capacity model of its run carries.
func (e *Emulator) Settings() throughput.Settings { return e.cfg.Settings }

// lookupIn gives the emulator the items as the caller knows them (bench's
// instrumented client keeps a shadow of the table; Attach): the GSI keys
// an update or delete moves away from are then known before the call, for
// back-pressure. Without it, only a put's GSI keys are.
func (e *Emulator) lookupIn(f func(table string, key ddbitem.Item) ddbitem.Item) { e.lookup.Store(&f) }

func (e *Emulator) now() int64 { return e.cfg.Now().UnixNano() }

// provisioned reports whether the tables use provisioned throughput.
func (e *Emulator) provisioned() bool { return e.schema.Billing == types.BillingModeProvisioned }

// table is one emulated table: its own partitions and those of each GSI.
type table struct {
	spaces map[string]*space // by designs.MainTable or GSI name
}

// tableOf returns the emulated table name, creating its partitions at first
// use. Call with e.mu held.
func (e *Emulator) tableOf(name string, now int64) *table {
	if t := e.tables[name]; t != nil {
		return t
	}
	t := &table{spaces: map[string]*space{}}
	arn := "arn:aws:dynamodb:" + e.cfg.Region + ":" + e.cfg.Account + ":table/" + name
	t.spaces[designs.MainTable] = e.newSpace(designs.MainTable, arn, false, now)
	for _, ix := range e.schema.GSIs {
		t.spaces[ix.Name] = e.newSpace(ix.Name, arn+"/index/"+ix.Name, true, now)
	}
	e.tables[name] = t
	return t
}

// space is where target's traffic lands: a GSI's own partitions, else the
// table's (an LSI lives in its table's partitions).
func (t *table) space(target string) *space {
	if s := t.spaces[target]; s != nil {
		return s
	}
	return t.spaces[designs.MainTable]
}
