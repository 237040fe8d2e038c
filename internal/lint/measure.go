package lint

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/scenarios"
	"github.com/ddbharness/ddbharness/workload"
)

// Table is the Target of a finding about the base table.
const Table = "table"

// seed is one seeded data set: the pool it was seeded with and the items,
// and what probing the scenario's write steps on them found.
type seed struct {
	pool   int
	items  []ddbitem.Item
	probes []probe
}

// designScenarios are the design's scenarios in scenarios.All, its default
// first.
func designScenarios(design string) []workload.Scenario {
	var out []workload.Scenario
	for _, sc := range scenarios.All {
		if sc.Design.Name == design {
			out = append(out, sc)
		}
	}
	return out
}

// seedWith fills an in-memory table (memtable.Memory) with pool entities
// through the Seed of sc's driver: the same fixtures bench loads, so the
// lint measures the data the design would really hold. Seeding in memory
// keeps the lint a unit check, quick enough for make test and make verify:
// the seeds fold their writes in memory anyway (fixtures.Loader). With
// probe, sc's write steps are then called on the seeded data
// (probeWrites). A driver that panics is an error naming the design and
// the panic, not a crash of the run that lints it (make verify prints it
// and goes on to its totals).
func seedWith(ctx context.Context, d designs.Design, sc workload.Scenario, pool int, rnd int64, probe bool) (s seed, err error) {
	table := "lint-" + d.Name
	var changes []memtable.Change
	probing := false
	sink := memtable.NewMemory(d.Schema.ItemSchema(), table, memtable.OnChange(func(c memtable.Change) {
		if probing {
			changes = append(changes, c)
		}
	}))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("lint %s: seed %d: the scenario driver's Seed panicked: %v (run the scenario with make bench SCENARIO=%s to see where)",
				d.Name, pool, p, sc.Name)
		}
	}()
	drv := sc.Driver(sink, table, rnd)
	if err := drv.Seed(ctx, pool, nil); err != nil {
		return seed{}, fmt.Errorf("lint %s: seed %d: %w", d.Name, pool, err)
	}
	s = seed{pool: pool, items: sink.Items()}
	if probe {
		probing = true
		s.probes = probeWrites(ctx, d, sc, drv, &changes, rnd)
	}
	return s, nil
}

// targets lists the base table and every index, GSIs first.
func targets(s designs.Schema) []string {
	out := []string{Table}
	for _, ix := range s.GSIs {
		out = append(out, ix.Name)
	}
	for _, ix := range s.LSIs {
		out = append(out, ix.Name)
	}
	return out
}

// pkOf is the partition key attribute of a target.
func pkOf(s designs.Schema, target string) string {
	return strings.Join(pksOf(s, target), ", ")
}

// pksOf is the attributes of target's partition key: a GSI's (several
// for a multi-attribute key, whose partition is their tuple), or the
// table's.
func pksOf(s designs.Schema, target string) []string {
	for _, ix := range s.GSIs {
		if ix.Name == target {
			return ix.PartitionAttrs()
		}
	}
	return []string{s.PK} // the table, and every LSI
}

// entries is what target holds for the items: the items themselves for the
// table, their index entries (ddbitem's Entry: sparse indexes skip items
// without the key) for an index.
func entries(s designs.Schema, target string, items []ddbitem.Item) []ddbitem.Item {
	out := make([]ddbitem.Item, 0, len(items))
	keys := s.ItemSchema()
	for _, it := range items {
		e := it
		if target != Table {
			e = keys.EntryOf(target, it)
		}
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// partitions is a target's entries grouped by partition key value.
type partitions struct {
	entries int
	bytes   int
	keys    map[string]*partition
}

// partition is one partition key value of a target: its entries and their
// size (for the table and its LSIs, the item collection).
type partition struct {
	key     string
	entries int
	bytes   int
	types   map[string]int // entries per item type
}

func group(s designs.Schema, target string, es []ddbitem.Item) partitions {
	pks := pksOf(s, target)
	ps := partitions{keys: map[string]*partition{}}
	for _, e := range es {
		k := ddbitem.PartitionText(pks, e)
		p := ps.keys[k]
		if p == nil {
			p = &partition{key: k, types: map[string]int{}}
			ps.keys[k] = p
		}
		size := ddbitem.Size(e)
		p.entries++
		p.bytes += size
		p.types[s.ItemType(e, pks[0])]++
		ps.entries++
		ps.bytes += size
	}
	return ps
}

// byType counts, per item type, its entries and the distinct partition
// keys they sit on.
func (ps partitions) byType() map[string]typeSpread {
	out := map[string]typeSpread{}
	for _, p := range ps.keys {
		for t, n := range p.types {
			ts := out[t]
			ts.entries += n
			ts.keys++
			out[t] = ts
		}
	}
	return out
}

// typeSpread is how one item type spreads over a target's partitions.
type typeSpread struct{ entries, keys int }

// largest returns the partitions in decreasing entry count.
func (ps partitions) largest() []*partition {
	out := make([]*partition, 0, len(ps.keys))
	for _, p := range ps.keys {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *partition) int {
		return cmp.Or(cmp.Compare(b.entries, a.entries), strings.Compare(a.key, b.key))
	})
	return out
}

// Fixtures is what the design's default scenario seeds for a pool of n
// entities, in memory (in no particular order): the data export-model takes
// its sample items from.
func Fixtures(ctx context.Context, d designs.Design, n int) ([]ddbitem.Item, error) {
	sc, ok := scenarios.Default(d.Name)
	if !ok {
		return nil, fmt.Errorf("lint %s: %w: no scenario to seed fixtures from", d.Name, designs.ErrNotFound)
	}
	s, err := seedWith(ctx, d, sc, n, DefaultRandomSeed, false)
	return s.items, err
}
