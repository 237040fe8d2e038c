package lint

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/workload"
)

// Finding is one risk of a design: where it is, the DynamoDB limit it runs
// into, what the lint measured or read (as numbers), why it matters and
// how to fix it. The figures are the finding; its sentences (Found,
// LimitText, Why, Fix, and Warning) are rendered from them, one renderer
// per check (render.go), so the text and lint -json never disagree.
type Finding struct {
	Design string `json:"design"`
	// Target is Table or an index name, for the catalog's checks too (a
	// pattern on designs.MainTable has Target Table).
	Target  string            `json:"target"`
	Pattern designs.PatternID `json:"pattern,omitempty"`
	Check   string            `json:"check"`
	// Attribute is the attribute the finding is about: the target's
	// partition key, or the attribute a pattern grows.
	Attribute string `json:"attribute,omitempty"`
	// Pool is how many entities were seeded for the measurement (0: the
	// finding reads the catalog only).
	Pool  int   `json:"pool,omitempty"`
	Limit Limit `json:"limit"`
	// Measured holds the check's figures by name; a name ending in _bytes
	// is in bytes, any other is a count. By check: partition-key entries,
	// distinct_keys; item-growth elements, element_bytes, appends_to_limit;
	// item-size items (over the limit); hot-item made, calls (those of
	// them that succeeded), rewrites, keys
	// (the distinct keys those calls drew), key_space, wcu_per_call and
	// calls_per_second_at_limit (the item's), key_wcu_per_call and
	// key_calls_per_second_at_limit (its partition key value's); not-probed
	// calls, succeeded; transaction-size max_actions (when declared); unpaged-query
	// largest_entry_bytes, and max_items, page_bytes when a bound is
	// declared; projection-all entry_bytes, unread_bytes.
	Measured map[string]int `json:"measured,omitempty"`
	// Keys are the partition key values (or, for item-growth, the item
	// key) the finding names, largest first, with their own figures.
	Keys []KeyFigure `json:"keys,omitempty"`
	// Types are the item types whose entries keep to a fixed set of
	// partition key values while the data grows.
	Types []TypeFigure `json:"types,omitempty"`
	// Names lists attributes or pattern IDs the finding names: a
	// projection's readers, needed and unread attributes; a hot item's
	// scenarios, its step's pool and its partition_key value; why a
	// pattern was not probed (error).
	Names map[string][]string `json:"names,omitempty"`
	// Scenario is the scenario whose calls gave a hot-item or not-probed
	// finding its figures.
	Scenario string `json:"scenario,omitempty"`
	// Transactional is set on a hot-item finding whose pattern writes in a
	// transaction, which costs each item twice the units.
	Transactional bool `json:"transactional,omitempty"`
	// Unbounded is set on a transaction-size finding whose pattern's
	// action count follows its input with no bound.
	Unbounded bool `json:"unbounded,omitempty"`

	Found     string `json:"found"`
	LimitText string `json:"limit_text"`
	Why       string `json:"why"`
	Fix       string `json:"fix"`
}

// Limit is the DynamoDB limit a finding runs into: one or more values,
// each with its unit, and the page that states it.
type Limit struct {
	Values []Quantity `json:"values,omitempty"`
	Source string     `json:"source,omitempty"`
}

// Quantity is a number with its unit.
type Quantity struct {
	Value int64  `json:"value"`
	Unit  string `json:"unit"`
}

// KeyFigure is one key value a finding names: its entries, their share of
// the target's (0 to 1), their bytes, how many bytes it grows by per
// entity seeded (measured between half the pool and the pool), and the
// entities at which that growth reaches the limit (0: not growing, so not
// projected).
type KeyFigure struct {
	Key                  string  `json:"key"`
	Entries              int     `json:"entries,omitempty"`
	Share                float64 `json:"share,omitempty"`
	Bytes                int     `json:"bytes,omitempty"`
	GrowthBytesPerEntity float64 `json:"growth_bytes_per_entity,omitempty"`
	EntitiesAtLimit      int     `json:"entities_at_limit,omitempty"`
}

// TypeFigure is an item type that stays on a fixed set of key values while
// its entries grow.
type TypeFigure struct {
	Type        string `json:"type"`
	Keys        int    `json:"keys"`
	FromEntries int    `json:"from_entries"`
	Entries     int    `json:"entries"`
}

// Sources of the limits the checks apply.
const (
	guide             = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
	sourcePartition   = guide + "bp-partition-key-design.html"
	sourceCollection  = guide + "LSI.html#LSI.ItemCollections.SizeLimit"
	sourceItem        = guide + "ServiceQuotas.html#limits-items"
	sourceTransaction = guide + "ServiceQuotas.html#limits-dynamodb-transactions"
	sourcePage        = guide + "Query.Pagination.html"
	sourceProjection  = guide + "GSI.html#GSI.StorageConsiderations"
	sourceFilter      = guide + "Query.FilterExpression.html"
)

// The checks, as Finding.Check names them.
const (
	CheckPartitionKey  = "partition-key"
	CheckLSICollection = "lsi-collection"
	CheckItemGrowth    = "item-growth"
	CheckItemSize      = "item-size"
	CheckHotItem       = "hot-item"
	CheckNotProbed     = "not-probed"
	CheckTransaction   = "transaction-size"
	CheckUnpagedQuery  = "unpaged-query"
	CheckScan          = "scan"
	CheckProjection    = "projection-all"
	CheckFilteredRead  = "filtered-read"
)

// Thresholds of the partition key check. A target is flagged when one key
// value holds more than MaxKeyShare of its entries, when its distinct key
// values are fewer than MinDistinctShare of its entries, or when an item
// type keeps to a fixed set of key values while the pool doubles: the
// first two catch a hot key in one data set; the third catches constant
// keys (USER, CAT) that hold a small share today and grow with the data.
const (
	// MaxKeyShare is the largest share of a target's entries one partition
	// key value may hold.
	MaxKeyShare = 0.20
	// MinDistinctShare is the fewest distinct partition key values a
	// target may have, as a share of its entries.
	MinDistinctShare = 0.01
	// MinEntries is the fewest entries a target or an item type needs
	// before shares mean anything.
	MinEntries = 20
	// FixedKeyGrowth is how much an item type's distinct key values may
	// grow, at most, while its entries double, for the lint to call them a
	// fixed set: per-entity keys double with the pool.
	FixedKeyGrowth = 1.2
	// MinEntryGrowth is how much an item type's entries must grow when the
	// pool doubles for the fixed-key rule to apply (a singleton stays put).
	MinEntryGrowth = 1.5
	// maxListedKeys is how many key values a finding names.
	maxListedKeys = 4
)

// Defaults of Run.
const (
	// DefaultPool is how many entities the lint seeds: bench's usual pool.
	DefaultPool = 2000
	// DefaultRandomSeed is the fixtures' random seed (non-zero: gofakeit
	// reads 0 as "random"), so that every run reports the same figures.
	DefaultRandomSeed = 1
)

// Option configures Run.
type Option func(*config)

type config struct {
	pool      int
	seed      int64
	scenarios []workload.Scenario
}

// Pool sets how many entities are seeded (half as many are seeded too,
// to see what grows with the pool).
func Pool(n int) Option { return func(c *config) { c.pool = max(n, 2) } }

// RandomSeed sets the fixtures' random seed.
func RandomSeed(s int64) Option { return func(c *config) { c.seed = s } }

// Scenarios sets the scenarios whose write steps are probed, the first
// also seeding the data the other checks measure. Default: every scenario
// of the design in scenarios.All, its default first.
func Scenarios(scs ...workload.Scenario) Option {
	return func(c *config) { c.scenarios = scs }
}

// Run lints one design: it seeds the first scenario's fixtures at the pool
// and at half of it, probes the write steps of every scenario on its own
// pool (probeScenario), then runs every check. Findings come in check
// order.
func Run(ctx context.Context, d designs.Design, opts ...Option) ([]Finding, error) {
	c := config{pool: DefaultPool, seed: DefaultRandomSeed}
	for _, o := range opts {
		o(&c)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	scs := c.scenarios
	if scs == nil {
		scs = designScenarios(d.Name)
	}
	if len(scs) == 0 {
		return nil, fmt.Errorf("lint %s: %w: no scenario to seed fixtures from", d.Name, designs.ErrNotFound)
	}
	for _, sc := range scs {
		if sc.Design.Name != d.Name {
			return nil, fmt.Errorf("lint %s: %w: scenario %s is of design %s", d.Name, designs.ErrInvalidInput, sc.Name, sc.Design.Name)
		}
	}
	half, err := seedWith(ctx, d, scs[0], c.pool/2, c.seed, false)
	if err != nil {
		return nil, err
	}
	full, err := seedWith(ctx, d, scs[0], c.pool, c.seed, scs[0].Pool == c.pool)
	if err != nil {
		return nil, err
	}
	probes := full.probes
	for i, sc := range scs {
		if i > 0 || sc.Pool != c.pool {
			probes = append(probes, probeScenario(ctx, d, sc, c.seed)...)
		}
	}
	return check(d, half, full, append(probes, unmixed(d, scs)...)), nil
}

// check runs every check on a design and two seeded data sets, the second
// from a larger pool than the first, with what probing the write steps
// found.
func check(d designs.Design, half, full seed, probes []probe) []Finding {
	l := linter{d: d, half: half, full: full, probes: probes, hot: map[string][]string{}}
	l.partitionKeys()
	l.lsiCollections()
	l.itemSizes()
	l.itemGrowth()
	l.hotItems()
	l.notProbed()
	l.transactions()
	l.queries()
	l.filteredReads()
	l.projections()
	return l.out
}

type linter struct {
	d          designs.Design
	half, full seed
	probes     []probe
	hot        map[string][]string // target → flagged partition key values
	out        []Finding
}

// add renders f's sentences from its figures and keeps it.
func (l *linter) add(f Finding) {
	f.Design = l.d.Name
	f.Found, f.LimitText, f.Why, f.Fix = f.render()
	l.out = append(l.out, f)
}

// itemSizes is the check of seeded items over the item size limit:
// DynamoDB refuses to store one, so the write that makes it fails.
func (l *linter) itemSizes() {
	var over []KeyFigure
	for _, it := range l.full.items {
		if n := ddbitem.Size(it); n > ddbitem.MaxItemBytes {
			over = append(over, KeyFigure{Key: itemKey(l.d.Schema, it), Bytes: n})
		}
	}
	if len(over) == 0 {
		return
	}
	slices.SortStableFunc(over, func(a, b KeyFigure) int { return b.Bytes - a.Bytes })
	l.add(Finding{Target: Table, Check: CheckItemSize, Pool: l.full.pool, Limit: itemLimit,
		Measured: map[string]int{"items": len(over)}, Keys: over[:min(len(over), maxListedKeys)]})
}

// itemLimit is the 400 KB item size limit.
var itemLimit = Limit{Values: []Quantity{{ddbitem.MaxItemBytes, "bytes per item"}}, Source: sourceItem}

// lowCardinality reports whether a target's distinct partition key values
// are too few for its entries.
func lowCardinality(keys, entries int) bool {
	return float64(keys)/float64(entries) < MinDistinctShare
}

// partitionKeys is check 1: constant or low-cardinality partition keys on
// the table and each index.
func (l *linter) partitionKeys() {
	s := l.d.Schema
	for _, target := range targets(s) {
		full := group(s, target, entries(s, target, l.full.items))
		half := group(s, target, entries(s, target, l.half.items))
		if full.entries < MinEntries {
			continue
		}
		flagged := map[string]bool{}
		var types []TypeFigure
		largest := full.largest()
		for _, p := range largest {
			if share := float64(p.entries) / float64(full.entries); share > MaxKeyShare {
				flagged[p.key] = true
			}
		}
		if lowCardinality(len(full.keys), full.entries) {
			for _, p := range largest[:min(len(largest), maxListedKeys)] {
				flagged[p.key] = true
			}
		}
		halfTypes := half.byType()
		fullTypes := full.byType()
		for _, t := range slices.Sorted(maps.Keys(fullTypes)) {
			f, h := fullTypes[t], halfTypes[t]
			if f.entries < MinEntries || h.entries == 0 || float64(f.entries) < MinEntryGrowth*float64(h.entries) ||
				float64(f.keys) > FixedKeyGrowth*float64(h.keys) {
				continue
			}
			for _, p := range largest {
				if p.types[t] > 0 {
					flagged[p.key] = true
				}
			}
			types = append(types, TypeFigure{Type: t, Keys: f.keys, FromEntries: h.entries, Entries: f.entries})
		}
		if len(flagged) == 0 {
			continue
		}
		f := Finding{Target: target, Check: CheckPartitionKey, Attribute: pkOf(s, target), Pool: l.full.pool,
			Limit: Limit{Values: []Quantity{{ddbitem.PartitionRCU, "RCU/s per partition key value"}, {ddbitem.PartitionWCU, "WCU/s per partition key value"}},
				Source: sourcePartition},
			Measured: map[string]int{"entries": full.entries, "distinct_keys": len(full.keys)}, Types: types}
		for _, p := range largest {
			if flagged[p.key] {
				l.hot[target] = append(l.hot[target], p.key)
				f.Keys = append(f.Keys, KeyFigure{Key: p.key, Entries: p.entries, Share: float64(p.entries) / float64(full.entries)})
			}
		}
		l.add(f)
	}
}

// lsiCollections is check 2: an LSI on a table whose flagged partition
// key values gather item collections that grow with the data set.
func (l *linter) lsiCollections() {
	s := l.d.Schema
	hot := l.hot[Table]
	if len(hot) == 0 {
		return
	}
	fullT := group(s, Table, entries(s, Table, l.full.items))
	halfT := group(s, Table, entries(s, Table, l.half.items))
	for _, ix := range s.LSIs {
		fullI := group(s, ix.Name, entries(s, ix.Name, l.full.items))
		halfI := group(s, ix.Name, entries(s, ix.Name, l.half.items))
		var figures []KeyFigure
		for _, k := range hot {
			if fullI.keys[k] == nil {
				continue // the LSI holds nothing of this collection
			}
			size := func(t, i partitions) int {
				n := 0
				if p := t.keys[k]; p != nil {
					n += p.bytes
				}
				if p := i.keys[k]; p != nil {
					n += p.bytes
				}
				return n
			}
			fb, hb := size(fullT, fullI), size(halfT, halfI)
			kf := KeyFigure{Key: k, Bytes: fb}
			if grow := float64(fb-hb) / float64(l.full.pool-l.half.pool); grow > 0 {
				kf.GrowthBytesPerEntity = grow
				kf.EntitiesAtLimit = l.full.pool + int(float64(ddbitem.MaxCollectionBytes-fb)/grow)
			}
			figures = append(figures, kf)
		}
		if len(figures) == 0 {
			continue
		}
		l.add(Finding{Target: ix.Name, Check: CheckLSICollection, Attribute: s.PK, Pool: l.full.pool, Keys: figures,
			Limit: Limit{Values: []Quantity{{ddbitem.MaxCollectionBytes, "bytes per item collection on a table with an LSI"}}, Source: sourceCollection},
		})
	}
}

// itemGrowth is check 3: attributes patterns append to in place, against
// the 400 KB item limit.
func (l *linter) itemGrowth() {
	for _, p := range l.d.Patterns {
		for _, attr := range p.Grows {
			item, n, size := largestWith(l.full.items, attr)
			if item == nil {
				l.add(Finding{Target: Table, Pattern: p.ID, Check: CheckItemGrowth, Attribute: attr, Pool: l.full.pool, Limit: itemLimit})
				continue
			}
			elem := max(valueSize(attr, item[attr])/max(n, 1), 1)
			kf := KeyFigure{Key: itemKey(l.d.Schema, item), Bytes: size}
			if old := findItem(l.d.Schema, l.half.items, item); old != nil {
				if grow := float64(size-ddbitem.Size(old)) / float64(l.full.pool-l.half.pool); grow > 0 {
					kf.GrowthBytesPerEntity = grow
					kf.EntitiesAtLimit = l.full.pool + int(float64(ddbitem.MaxItemBytes-size)/grow)
				}
			}
			l.add(Finding{Target: Table, Pattern: p.ID, Check: CheckItemGrowth, Attribute: attr, Pool: l.full.pool, Limit: itemLimit,
				Keys:     []KeyFigure{kf},
				Measured: map[string]int{"elements": n, "element_bytes": elem, "appends_to_limit": (ddbitem.MaxItemBytes - size) / elem},
			})
		}
	}
}

// transactions checks transaction patterns against the 100-action limit.
func (l *linter) transactions() {
	for _, p := range l.d.Patterns {
		if p.Op != designs.TransactWriteItems && p.Op != designs.TransactGetItems {
			continue
		}
		if !p.Unbounded && p.MaxActions != 0 && p.MaxActions <= designs.MaxTransactActions {
			continue
		}
		f := Finding{Target: targetOf(p), Pattern: p.ID, Check: CheckTransaction, Unbounded: p.Unbounded,
			Limit: Limit{Values: []Quantity{{designs.MaxTransactActions, "actions per transaction"}}, Source: sourceTransaction}}
		if p.MaxActions > 0 {
			f.Measured = map[string]int{"max_actions": p.MaxActions}
		}
		l.add(f)
	}
}

// queries flags Scans, and Queries that can pass a 1 MB page without a
// cursor to the next one.
func (l *linter) queries() {
	for _, p := range l.d.Patterns {
		if p.Op == designs.Scan {
			l.add(Finding{Target: targetOf(p), Pattern: p.ID, Check: CheckScan,
				Limit: Limit{Values: []Quantity{{ddbitem.MaxPageBytes, "bytes per Scan page"}}, Source: sourcePage}})
		}
		if p.Op != designs.Query || p.Pages || p.AllPages {
			continue
		}
		largest := 0
		for _, e := range entries(l.d.Schema, targetOf(p), l.full.items) {
			largest = max(largest, ddbitem.Size(e))
		}
		if p.MaxItems != 0 && p.MaxItems*largest <= ddbitem.MaxPageBytes {
			continue
		}
		f := Finding{Target: targetOf(p), Pattern: p.ID, Check: CheckUnpagedQuery, Pool: l.full.pool,
			Limit:    Limit{Values: []Quantity{{ddbitem.MaxPageBytes, "bytes per Query call"}}, Source: sourcePage},
			Measured: map[string]int{"largest_entry_bytes": largest}}
		if p.MaxItems > 0 {
			f.Measured["max_items"], f.Measured["page_bytes"] = p.MaxItems, p.MaxItems*largest
		}
		l.add(f)
	}
}

// filteredReads flags patterns that filter or count: each call pays for
// every entry its key condition reaches. The measure is the largest
// partition of the pattern's target in the seeded data, what one call
// (page by page) may pay for to return a few items or a number.
func (l *linter) filteredReads() {
	for _, p := range l.d.Patterns {
		if len(p.Filters) == 0 && !p.Counts {
			continue
		}
		f := Finding{Target: targetOf(p), Pattern: p.ID, Check: CheckFilteredRead, Pool: l.full.pool,
			Limit:    Limit{Values: []Quantity{{ddbitem.ReadUnitBytes, "bytes per read unit"}}, Source: sourceFilter},
			Measured: map[string]int{}, Names: map[string][]string{}}
		if len(p.Filters) > 0 {
			f.Names["filters"] = slices.Clone(p.Filters)
		}
		if p.Counts {
			f.Names["counts"] = []string{"COUNT"}
		}
		if p.Op == designs.Query { // a Scan reads every partition: no one of them is its measure
			if ps := group(l.d.Schema, targetOf(p), entries(l.d.Schema, targetOf(p), l.full.items)).largest(); len(ps) > 0 {
				f.Measured["largest_partition_entries"], f.Measured["largest_partition_bytes"] = ps[0].entries, ps[0].bytes
				f.Keys = []KeyFigure{{Key: ps[0].key, Entries: ps[0].entries, Bytes: ps[0].bytes}}
			}
		}
		l.add(f)
	}
}

// projections flags indexes projecting ALL whose readers all declare the
// attributes they need, when the entries carry more than that.
func (l *linter) projections() {
	s := l.d.Schema
	for _, ix := range append(slices.Clone(s.GSIs), s.LSIs...) {
		if ix.Projection != "" && ix.Projection != types.ProjectionTypeAll {
			continue
		}
		need := map[string]bool{s.PK: true, s.SK: true}
		for _, a := range append(pksOf(s, ix.Name), ix.SortAttrs()...) {
			need[a] = true
		}
		var readers []designs.PatternID
		declared := true
		for _, p := range l.d.Patterns {
			if p.Index != ix.Name {
				continue
			}
			readers = append(readers, p.ID)
			declared = declared && p.Reads != nil
			for _, a := range p.Reads {
				need[a] = true
			}
		}
		if len(readers) == 0 || !declared {
			continue
		}
		delete(need, "") // a target without a sort key
		extra := map[string]bool{}
		total, unused := 0, 0
		for _, e := range entries(s, ix.Name, l.full.items) {
			total += ddbitem.Size(e)
			for a, v := range e {
				if !need[a] {
					extra[a] = true
					unused += len(a) + valueSize(a, v)
				}
			}
		}
		if len(extra) == 0 {
			continue
		}
		l.add(Finding{Target: ix.Name, Check: CheckProjection, Pool: l.full.pool, Limit: Limit{Source: sourceProjection},
			Measured: map[string]int{"unread_bytes": unused, "entry_bytes": total},
			Names: map[string][]string{"readers": ids(readers), "needed": slices.Sorted(maps.Keys(need)),
				"unread": slices.Sorted(maps.Keys(extra))},
		})
	}
}

// targetOf is the lint target a pattern reads.
func targetOf(p designs.Pattern) string {
	if p.Index == designs.MainTable {
		return Table
	}
	return p.Index
}

// largestWith returns the largest item holding attr as a list or set, its
// element count and its size.
func largestWith(items []ddbitem.Item, attr string) (ddbitem.Item, int, int) {
	var best ddbitem.Item
	bestN, bestSize := 0, -1
	for _, it := range items {
		n, ok := elements(it[attr])
		if !ok {
			continue
		}
		if size := ddbitem.Size(it); size > bestSize {
			best, bestN, bestSize = it, n, size
		}
	}
	return best, bestN, bestSize
}

// elements counts a list's or set's elements; ok is false for other values.
func elements(v types.AttributeValue) (int, bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberSS:
		return len(v.Value), true
	case *types.AttributeValueMemberNS:
		return len(v.Value), true
	case *types.AttributeValueMemberBS:
		return len(v.Value), true
	case *types.AttributeValueMemberL:
		return len(v.Value), true
	}
	return 0, false
}

// valueSize is the billed size of one attribute's value, without its name.
func valueSize(name string, v types.AttributeValue) int {
	return ddbitem.Size(ddbitem.Item{name: v}) - len(name)
}

// itemKey renders an item's primary key for a finding.
func itemKey(s designs.Schema, it ddbitem.Item) string {
	return ddbitem.Schema{PK: s.PK, SK: s.SK}.KeyText(it)
}

// findItem returns the item of items with the same primary key as it.
func findItem(s designs.Schema, items []ddbitem.Item, it ddbitem.Item) ddbitem.Item {
	want := itemKey(s, it)
	for _, o := range items {
		if itemKey(s, o) == want {
			return o
		}
	}
	return nil
}

func ids(ps []designs.PatternID) []string {
	out := make([]string, len(ps))
	for i, id := range ps {
		out[i] = string(id)
	}
	return out
}
