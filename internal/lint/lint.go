// Package lint checks a design against DynamoDB's limits before any load
// runs: partition keys that concentrate the data, LSIs on item collections
// that grow without bound, items that patterns grow in place, transactions,
// unpaged queries, scans and projections wider than their readers need.
// What the schema and the catalog declare is checked as declared; what
// depends on data (key cardinality, item and collection sizes) is measured
// on the design's own fixtures, seeded in memory (ddbitem.Memory).
package lint

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Finding is one risk of a design: where it is, the DynamoDB limit it runs
// into, what the lint measured or read, why it matters and how to fix it.
type Finding struct {
	Design  string            `json:"design"`
	Target  string            `json:"target"` // Table or an index name
	Pattern designs.PatternID `json:"pattern,omitempty"`
	Check   string            `json:"check"`
	Limit   string            `json:"limit"`
	Found   string            `json:"found"`
	Why     string            `json:"why"`
	Fix     string            `json:"fix"`
}

// The checks, as Finding.Check names them.
const (
	CheckPartitionKey  = "partition-key"
	CheckLSICollection = "lsi-collection"
	CheckItemGrowth    = "item-growth"
	CheckTransaction   = "transaction-size"
	CheckUnpagedQuery  = "unpaged-query"
	CheckScan          = "scan"
	CheckProjection    = "projection-all"
)

// Thresholds of the partition key check. A target is flagged when one key
// value holds more than HotShare of its entries, when its distinct key
// values are fewer than MinDistinctShare of its entries, or when an item
// type keeps to a fixed set of key values while the pool doubles: the
// first two catch a hot key in one data set; the third catches constant
// keys (USER, CAT) that hold a small share today and grow with the data.
const (
	// HotShare is the largest share of a target's entries one partition
	// key value may hold.
	HotShare = 0.20
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
	// DefaultSeed is the fixtures' random seed (non-zero: gofakeit reads 0
	// as "random"), so that every run reports the same figures.
	DefaultSeed = 1
)

// Option configures Run.
type Option func(*config)

type config struct {
	pool int
	seed int64
}

// WithPool sets how many entities are seeded (half as many are seeded too,
// to see what grows with the pool).
func WithPool(n int) Option { return func(c *config) { c.pool = max(n, 2) } }

// WithSeed sets the fixtures' random seed.
func WithSeed(s int64) Option { return func(c *config) { c.seed = s } }

// Run lints one design: it seeds the design's fixtures at the pool and at
// half of it, then runs every check. Findings come in check order.
func Run(ctx context.Context, d designs.Design, opts ...Option) ([]Finding, error) {
	c := config{pool: DefaultPool, seed: DefaultSeed}
	for _, o := range opts {
		o(&c)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	half, err := seedDesign(ctx, d, c.pool/2, c.seed)
	if err != nil {
		return nil, err
	}
	full, err := seedDesign(ctx, d, c.pool, c.seed)
	if err != nil {
		return nil, err
	}
	return check(d, half, full), nil
}

// check runs every check on a design and two seeded data sets, the second
// from a larger pool than the first.
func check(d designs.Design, half, full seed) []Finding {
	l := linter{d: d, half: half, full: full, hot: map[string][]string{}}
	l.partitionKeys()
	l.lsiCollections()
	l.itemGrowth()
	l.transactions()
	l.queries()
	l.projections()
	return l.out
}

type linter struct {
	d          designs.Design
	half, full seed
	hot        map[string][]string // target → flagged partition key values
	out        []Finding
}

func (l *linter) add(f Finding) {
	f.Design = l.d.Name
	l.out = append(l.out, f)
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
		var reasons []string
		largest := full.largest()
		for _, p := range largest {
			if share := float64(p.entries) / float64(full.entries); share > HotShare {
				flagged[p.key] = true
				reasons = append(reasons, fmt.Sprintf("%s holds %.0f%% of the entries", p.key, 100*share))
			}
		}
		if share := float64(len(full.keys)) / float64(full.entries); share < MinDistinctShare {
			for _, p := range largest[:min(len(largest), maxListedKeys)] {
				flagged[p.key] = true
			}
			reasons = append(reasons, fmt.Sprintf("only %s distinct key values for %s entries", count(len(full.keys)), count(full.entries)))
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
			reasons = append(reasons, fmt.Sprintf("%s entries stay on %s key value(s) while they grow from %s to %s",
				t, count(f.keys), count(h.entries), count(f.entries)))
		}
		if len(flagged) == 0 {
			continue
		}
		var keys []string
		for _, p := range largest {
			if flagged[p.key] {
				keys = append(keys, p.key)
			}
		}
		l.hot[target] = keys
		var listed []string
		for _, k := range keys[:min(len(keys), maxListedKeys)] {
			listed = append(listed, fmt.Sprintf("%s (%s entries)", k, count(full.keys[k].entries)))
		}
		more := ""
		if len(keys) > maxListedKeys {
			more = fmt.Sprintf(" and %d more", len(keys)-maxListedKeys)
		}
		l.add(Finding{Target: target, Check: CheckPartitionKey,
			Limit: fmt.Sprintf("%s RCU and %s WCU per second per partition key value", count(ddbitem.PartitionRCU), count(ddbitem.PartitionWCU)),
			Found: fmt.Sprintf("constant or low-cardinality partition key %s: %s%s of %s entries at pool %s; %s",
				pkOf(s, target), strings.Join(listed, ", "), more, count(full.entries), count(l.full.pool), strings.Join(reasons, "; ")),
			Why: "every read and write of these entries lands on one partition key value, so its throughput is capped " +
				"at one partition's share however large the table grows, and it grows with the data set.",
			Fix: "key the entries by their own ID or by an owner with bounded children, or write-shard the constant " +
				"value (KEY#0..KEY#N) and read the shards in parallel.",
		})
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
		var parts []string
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
			part := fmt.Sprintf("%s is %s", k, bytesText(fb))
			if grow := float64(fb-hb) / float64(l.full.pool-l.half.pool); grow > 0 {
				part += fmt.Sprintf(" (10 GB at about %s entities)", count(l.full.pool+int(float64(ddbitem.MaxCollectionBytes-fb)/grow)))
			}
			parts = append(parts, part)
		}
		if len(parts) == 0 {
			continue
		}
		l.add(Finding{Target: ix.Name, Check: CheckLSICollection,
			Limit: fmt.Sprintf("%s per item collection on a table with an LSI", bytesText(ddbitem.MaxCollectionBytes)),
			Found: fmt.Sprintf("LSI %s indexes the item collections of constant partition keys, which grow with the data: %s at pool %s",
				ix.Name, strings.Join(parts, ", "), count(l.full.pool)),
			Why: "once a collection reaches 10 GB DynamoDB refuses every write that would grow it, and an LSI " +
				"cannot be dropped or added after the table is created.",
			Fix: "serve this sort order from a GSI (no collection limit) or key the collection by a bounded owner; " +
				"an LSI fits only partitions with bounded data.",
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
				l.add(Finding{Target: Table, Pattern: p.ID, Check: CheckItemGrowth,
					Limit: fmt.Sprintf("%s per item", bytesText(ddbitem.MaxItemBytes)),
					Found: fmt.Sprintf("%s appends to %s, which no seeded item holds as a list or set", p.ID, attr),
					Why:   "an item that grows in place is refused once it reaches 400 KB, and every write of it costs more on the way.",
					Fix:   "seed the attribute so its size can be measured, or move each element to an item of its own.",
				})
				continue
			}
			elem := max(valueSize(attr, item[attr])/max(n, 1), 1)
			found := fmt.Sprintf("%s appends to %s; the largest seeded item holding it (%s) is %s with %s elements of about %d bytes: %s more appends reach 400 KB",
				p.ID, attr, itemKey(l.d.Schema, item), bytesText(size), count(n), elem, count((ddbitem.MaxItemBytes-size)/elem))
			if old := findItem(l.d.Schema, l.half.items, item); old != nil {
				if grow := float64(size-ddbitem.Size(old)) / float64(l.full.pool-l.half.pool); grow > 0 {
					found += fmt.Sprintf(", at about %s entities", count(l.full.pool+int(float64(ddbitem.MaxItemBytes-size)/grow)))
				}
			}
			l.add(Finding{Target: Table, Pattern: p.ID, Check: CheckItemGrowth,
				Limit: fmt.Sprintf("%s per item", bytesText(ddbitem.MaxItemBytes)),
				Found: found,
				Why: "DynamoDB refuses a write that takes an item past 400 KB, and every write and read of the item " +
					"is billed for its whole size, so it gets slower and dearer as it grows.",
				Fix: "store each element as its own item under a shared partition key (or a sparse GSI) and list them " +
					"with a paged Query instead of growing one item.",
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
		var found string
		switch {
		case p.Unbounded:
			found = fmt.Sprintf("%s's action count follows its input with no bound", p.ID)
		case p.MaxActions > designs.MaxTransactActions:
			found = fmt.Sprintf("%s's largest input needs %d actions", p.ID, p.MaxActions)
		case p.MaxActions == 0:
			found = fmt.Sprintf("%s declares no MaxActions, so its action count is unknown", p.ID)
		default:
			continue
		}
		l.add(Finding{Target: p.Index, Pattern: p.ID, Check: CheckTransaction,
			Limit: fmt.Sprintf("%d actions per transaction", designs.MaxTransactActions),
			Found: found,
			Why:   "DynamoDB rejects a transaction of more than 100 actions as a whole, so the pattern fails for large inputs, not slowly but entirely.",
			Fix:   "bound the input (refuse it above the limit, as designs.CheckTransactSize does) and declare MaxActions, or split the work into idempotent steps.",
		})
	}
}

// queries flags Scans, and Queries that can pass a 1 MB page without a
// cursor to the next one.
func (l *linter) queries() {
	for _, p := range l.d.Patterns {
		if p.Op == designs.Scan {
			l.add(Finding{Target: p.Index, Pattern: p.ID, Check: CheckScan,
				Limit: fmt.Sprintf("%s per Scan page; every item read is billed", bytesText(ddbitem.MaxPageBytes)),
				Found: fmt.Sprintf("%s is a Scan of %s", p.ID, p.Index),
				Why:   "a Scan reads and bills every item of the table or index, so its cost and latency grow with the data, not with the answer.",
				Fix:   "serve the pattern with a Query on a key (add a GSI, sparse if only some items qualify).",
			})
		}
		if p.Op != designs.Query || p.Pages {
			continue
		}
		largest := 0
		for _, e := range entries(l.d.Schema, targetOf(p), l.full.items) {
			largest = max(largest, ddbitem.Size(e))
		}
		var found string
		switch {
		case p.MaxItems == 0:
			found = fmt.Sprintf("%s queries %s without a page cursor and declares no MaxItems bound", p.ID, p.Index)
		case p.MaxItems*largest > ddbitem.MaxPageBytes:
			found = fmt.Sprintf("%s returns up to %d entries of up to %s: %s, without a page cursor",
				p.ID, p.MaxItems, bytesText(largest), bytesText(p.MaxItems*largest))
		default:
			continue
		}
		l.add(Finding{Target: p.Index, Pattern: p.ID, Check: CheckUnpagedQuery,
			Limit: fmt.Sprintf("%s per Query call", bytesText(ddbitem.MaxPageBytes)),
			Found: found,
			Why:   "DynamoDB stops a Query at 1 MB and returns LastEvaluatedKey; a pattern that ignores it silently returns part of the answer.",
			Fix:   "hand out pages with a cursor (designs.Cursor) and declare Pages, or bound the result and declare MaxItems.",
		})
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
		need := map[string]bool{s.PK: true, s.SK: true, pkOf(s, ix.Name): true, ix.SK: true}
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
		l.add(Finding{Target: ix.Name, Check: CheckProjection,
			Limit: "an index entry is billed and stored at its full projected size",
			Found: fmt.Sprintf("%s projects ALL, but its readers (%s) need only %s; %s of its %s is in unread attributes (%s)",
				ix.Name, joinIDs(readers), strings.Join(slices.Sorted(maps.Keys(need)), ", "), bytesText(unused), bytesText(total),
				strings.Join(slices.Sorted(maps.Keys(extra)), ", ")),
			Why: "every table write that touches a projected attribute is written again to the index, and storage is billed twice, " +
				"for attributes no reader of the index uses.",
			Fix: "project KEYS_ONLY or INCLUDE the attributes the readers declare (an index's projection is fixed at creation, so plan it before load).",
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
	k := ddbitem.KeyText(it[s.PK])
	if s.SK != "" {
		k += " / " + ddbitem.KeyText(it[s.SK])
	}
	return k
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

func joinIDs(ids []designs.PatternID) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return strings.Join(out, ", ")
}

// count renders n with thousands separators.
func count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// bytesText renders a size in B, KB, MB or GB (binary units, as the limits).
func bytesText(n int) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.3g GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.3g MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.3g KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
