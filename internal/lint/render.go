package lint

import (
	"fmt"
	"math"
	"strings"

	"github.com/ddbharness/ddbharness/internal/figure"
)

// sentences are a finding's text for people: what was found, the limit,
// why it matters and the fix.
type sentences struct{ found, limit, why, fix string }

// renderers write each check's sentences from a finding's figures, so
// that the text and the JSON numbers never disagree.
var renderers = map[string]func(Finding) sentences{
	CheckPartitionKey:  renderPartitionKey,
	CheckLSICollection: renderLSICollection,
	CheckItemGrowth:    renderItemGrowth,
	CheckItemSize:      renderItemSize,
	CheckHotItem:       renderHotItem,
	CheckNotProbed:     renderNotProbed,
	CheckTransaction:   renderTransaction,
	CheckScan:          renderScan,
	CheckUnpagedQuery:  renderUnpagedQuery,
	CheckProjection:    renderProjection,
	CheckFilteredRead:  renderFilteredRead,
}

// render writes a finding's sentences with its check's renderer. A check
// without one (a spec keeps every check listed) still reports, with its
// figures in the JSON: lint advice must never stop make verify.
func (f Finding) render() (found, limit, why, fix string) {
	r, ok := renderers[f.Check]
	if !ok {
		return fmt.Sprintf("%s on %s (figures in lint -json)", f.Check, f.Target), "", "", ""
	}
	s := r(f)
	return s.found, s.limit, s.why, s.fix
}

// limitValue is the finding's i-th limit value.
func (f Finding) limitValue(i int) int { return int(f.Limit.Values[i].Value) }

func renderPartitionKey(f Finding) sentences {
	m := f.Measured
	var listed, reasons []string
	for i, k := range f.Keys {
		if i < maxListedKeys {
			listed = append(listed, fmt.Sprintf("%s (%s entries)", k.Key, figure.Thousands(k.Entries)))
		}
		if k.Share > MaxKeyShare {
			reasons = append(reasons, fmt.Sprintf("%s holds %.0f%% of the entries", k.Key, 100*k.Share))
		}
	}
	if lowCardinality(m["distinct_keys"], m["entries"]) {
		reasons = append(reasons, fmt.Sprintf("only %s for %s entries", plural(m["distinct_keys"], "distinct key value"), figure.Thousands(m["entries"])))
	}
	for _, t := range f.Types {
		reasons = append(reasons, fmt.Sprintf("%s entries stay on %s while they grow from %s to %s",
			t.Type, plural(t.Keys, "key value"), figure.Thousands(t.FromEntries), figure.Thousands(t.Entries)))
	}
	more := ""
	if len(f.Keys) > maxListedKeys {
		more = fmt.Sprintf(" and %d more", len(f.Keys)-maxListedKeys)
	}
	return sentences{
		found: fmt.Sprintf("constant or low-cardinality partition key %s: %s%s of %s entries at pool %s; %s",
			f.Attribute, strings.Join(listed, ", "), more, figure.Thousands(m["entries"]), figure.Thousands(f.Pool), strings.Join(reasons, "; ")),
		limit: fmt.Sprintf("%s RCU and %s WCU per second per partition key value", figure.Thousands(f.limitValue(0)), figure.Thousands(f.limitValue(1))),
		why: "every read and write of these entries lands on one partition key value, so its throughput is capped " +
			"at one partition's share however large the table grows, and it grows with the data set.",
		fix: "key the entries by their own ID or by an owner with bounded children, or write-shard the constant " +
			"value (KEY#0..KEY#N) and read the shards in parallel.",
	}
}

func renderLSICollection(f Finding) sentences {
	ceiling := figure.Bytes(f.limitValue(0))
	var parts []string
	for _, k := range f.Keys {
		part := fmt.Sprintf("%s is %s", k.Key, figure.Bytes(k.Bytes))
		if k.EntitiesAtLimit > 0 {
			part += fmt.Sprintf(", growing %s per entity (%s at about %s entities)", rateText(k.GrowthBytesPerEntity), ceiling, figure.Thousands(k.EntitiesAtLimit))
		}
		parts = append(parts, part)
	}
	return sentences{
		found: fmt.Sprintf("LSI %s indexes the item collections of constant partition keys, which grow with the data: %s at pool %s",
			f.Target, strings.Join(parts, "; "), figure.Thousands(f.Pool)),
		limit: fmt.Sprintf("%s per item collection on a table with an LSI", ceiling),
		why: fmt.Sprintf("once a collection reaches %s DynamoDB refuses every write that would grow it, and an LSI "+
			"cannot be dropped or added after the table is created.", ceiling),
		fix: "serve this sort order from a GSI (no collection limit) or key the collection by a bounded owner; " +
			"an LSI fits only partitions with bounded data.",
	}
}

func renderItemSize(f Finding) sentences {
	ceiling := figure.Bytes(f.limitValue(0))
	k := f.Keys[0]
	return sentences{
		found: fmt.Sprintf("%s over %s among the items seeded at pool %s; the largest, %s, is %s",
			plural(f.Measured["items"], "item"), ceiling, figure.Thousands(f.Pool), k.Key, figure.Bytes(k.Bytes)),
		limit: fmt.Sprintf("%s per item", ceiling),
		why:   fmt.Sprintf("DynamoDB refuses to store an item over %s, attribute names included, so the write that makes one fails.", ceiling),
		fix:   "keep large values out of the item (in S3, with the item holding its key), or split them over items of their own under one partition key.",
	}
}

func renderItemGrowth(f Finding) sentences {
	ceiling := figure.Bytes(f.limitValue(0))
	limit := fmt.Sprintf("%s per item", ceiling)
	if len(f.Keys) == 0 {
		return sentences{
			found: fmt.Sprintf("%s appends to %s, which no seeded item holds as a list or set", f.Pattern, f.Attribute),
			limit: limit,
			why:   fmt.Sprintf("an item that grows in place is refused once it reaches %s, and every write of it costs more on the way.", ceiling),
			fix:   "seed the attribute so its size can be measured, or move each element to an item of its own.",
		}
	}
	m, k := f.Measured, f.Keys[0]
	found := fmt.Sprintf("%s appends to %s; the largest seeded item holding it (%s) is %s with %s elements of about %s: %s more appends reach %s",
		f.Pattern, f.Attribute, k.Key, figure.Bytes(k.Bytes), figure.Thousands(m["elements"]), figure.Bytes(m["element_bytes"]), figure.Thousands(m["appends_to_limit"]), ceiling)
	if k.EntitiesAtLimit > 0 {
		found += fmt.Sprintf("; growing %s per entity, it gets there at about %s entities", rateText(k.GrowthBytesPerEntity), figure.Thousands(k.EntitiesAtLimit))
	}
	return sentences{
		found: found,
		limit: limit,
		why: fmt.Sprintf("DynamoDB refuses a write that takes an item past %s, and every write and read of the item "+
			"is billed for its whole size, so it gets slower and dearer as it grows.", ceiling),
		fix: "store each element as its own item under a shared partition key (or a sparse GSI) and list them " +
			"with a paged Query instead of growing one item.",
	}
}

func renderHotItem(f Finding) sentences {
	m, n, item := f.Measured, f.Names, f.Keys[0].Key
	pool := fmt.Sprintf("the scenario's %s", plural(m["key_space"], "key"))
	if len(n["pool"]) > 0 {
		pool = fmt.Sprintf("the %s pool's %s", n["pool"][0], plural(m["key_space"], "key"))
	}
	spread := fmt.Sprintf("for %s different keys of %s", figure.Thousands(m["keys"]), pool)
	why := "every call of the pattern, whatever its entity, writes this one item, so its rate stops there however " +
		"the table scales: adaptive capacity can give the item a partition of its own but never splits it."
	switch m["keys"] {
	case 1:
		spread = "all for one key of " + pool
		why = "the scenario sends every call to one entity and each writes this item, so the pattern's rate there stops at the item's " +
			"ceiling however the table scales: adaptive capacity can give the item a partition of its own but never splits it."
	case m["rewrites"]:
		spread = "each for another key of " + pool
	}
	tx := ""
	if f.Transactional {
		tx = " (doubled: a transaction writes each item twice)"
	}
	calls := figure.Thousands(m["calls"]) + " calls"
	if m["made"] > m["calls"] {
		calls = fmt.Sprintf("%s successful calls of %s", figure.Thousands(m["calls"]), figure.Thousands(m["made"]))
	}
	found := fmt.Sprintf("%s writes %s on %s of %s in %s, %s: %s WCU a call on the item%s, so the item takes at most %s calls/s of %s",
		f.Pattern, item, figure.Thousands(m["rewrites"]), calls, f.Scenario, spread,
		figure.Thousands(m["wcu_per_call"]), tx, figure.Thousands(m["calls_per_second_at_limit"]), f.Pattern)
	if pk := n["partition_key"]; len(pk) > 0 && pk[0] != item {
		found += fmt.Sprintf("; its partition key value %s takes %s WCU a call, at most %s calls/s while its items share one partition",
			pk[0], figure.Thousands(m["key_wcu_per_call"]), figure.Thousands(m["key_calls_per_second_at_limit"]))
	}
	if others := n["scenarios"]; len(others) > 1 {
		found += "; hot in " + strings.Join(others[1:], ", ") + " too"
	}
	return sentences{
		found: found,
		limit: fmt.Sprintf("%s WCU/s per partition; an item lives on one partition, never split", figure.Thousands(f.limitValue(0))),
		why:   why,
		fix: "shard the item (N copies under key suffixes, one picked per write, summed or merged on read), or keep " +
			"each entity's part in an item of its own and aggregate on read or from a stream.",
	}
}

func renderNotProbed(f Finding) sentences {
	where := string(f.Pattern)
	fix := "add a step calling it to a scenario of the design, so that lint can probe it."
	if f.Scenario != "" {
		where += " in " + f.Scenario
		fix = "have the scenario's driver call it successfully on the data its Seed wrote, in memory: no Query, Scan or batch read " +
			"first (the in-memory table serves GetItem and writes only), and keys inside the step's pool."
	}
	return sentences{
		found: fmt.Sprintf("not probed: %s, %s", where, f.Names["error"][0]),
		limit: fmt.Sprintf("the hot-item check needs %s of %d successful calls to judge a pattern", figure.Thousands(f.limitValue(0)), probeCalls),
		why:   "the hot-item check measured nothing of this pattern here, so an item every call of it writes would go unreported.",
		fix:   fix,
	}
}

func renderTransaction(f Finding) sentences {
	var found string
	switch n := f.Measured["max_actions"]; {
	case f.Unbounded:
		found = fmt.Sprintf("%s's action count follows its input with no bound", f.Pattern)
	case n > 0:
		found = fmt.Sprintf("%s's largest input needs %s actions", f.Pattern, figure.Thousands(n))
	default:
		found = fmt.Sprintf("%s declares no MaxActions, so its action count is unknown", f.Pattern)
	}
	return sentences{
		found: found,
		limit: fmt.Sprintf("%s actions per transaction", figure.Thousands(f.limitValue(0))),
		why: fmt.Sprintf("DynamoDB rejects a transaction of more than %s actions as a whole, so the pattern fails for large inputs, "+
			"not slowly but entirely.", figure.Thousands(f.limitValue(0))),
		fix: "bound the input (refuse it above the limit, as designs.CheckTransactSize does) and declare MaxActions, " +
			"or split the work into idempotent steps.",
	}
}

func renderScan(f Finding) sentences {
	return sentences{
		found: fmt.Sprintf("%s is a Scan of %s", f.Pattern, f.Target),
		limit: fmt.Sprintf("%s per Scan page; every item read is billed", figure.Bytes(f.limitValue(0))),
		why:   "a Scan reads and bills every item of the table or index, so its cost and latency grow with the data, not with the answer.",
		fix:   "serve the pattern with a Query on a key (add a GSI, sparse if only some items qualify).",
	}
}

func renderUnpagedQuery(f Finding) sentences {
	m, ceiling := f.Measured, figure.Bytes(f.limitValue(0))
	found := fmt.Sprintf("%s queries %s without a page cursor and declares no MaxItems bound", f.Pattern, f.Target)
	if m["max_items"] > 0 {
		found = fmt.Sprintf("%s returns up to %s entries of up to %s: %s, without a page cursor",
			f.Pattern, figure.Thousands(m["max_items"]), figure.Bytes(m["largest_entry_bytes"]), figure.Bytes(m["page_bytes"]))
	}
	return sentences{
		found: found,
		limit: fmt.Sprintf("%s per Query call", ceiling),
		why: fmt.Sprintf("DynamoDB stops a Query at %s and returns LastEvaluatedKey; a pattern that ignores it silently "+
			"returns part of the answer.", ceiling),
		fix: "hand out pages with a cursor (designs.Cursor) and declare Pages, or bound the result and declare MaxItems.",
	}
}

func renderFilteredRead(f Finding) sentences {
	what := "filters on " + strings.Join(f.Names["filters"], ", ")
	if len(f.Names["filters"]) == 0 {
		what = "counts (Select=COUNT)"
	} else if len(f.Names["counts"]) > 0 {
		what += " and counts"
	}
	found := fmt.Sprintf("%s %s on %s", f.Pattern, what, f.Target)
	if n := f.Measured["largest_partition_entries"]; n > 0 {
		b := f.Measured["largest_partition_bytes"]
		found += fmt.Sprintf("; its largest partition in the seeded data (%s) holds %s, %s: about %s read units strongly consistent per full read, whatever it keeps",
			f.Keys[0].Key, figure.Thousands(n)+" entries", figure.Bytes(b), figure.Thousands((b+f.limitValue(0)-1)/f.limitValue(0)))
	}
	fix := "put the filtered attribute in the key: a composite sort key (begins_with or a range on it) or a sparse GSI holding only the items the filter keeps."
	if len(f.Names["filters"]) == 0 {
		fix = "keep the count in an item of its own, updated with ADD in the same transaction as the writes it counts, and read that item."
	}
	return sentences{
		found: found,
		limit: fmt.Sprintf("every item the key condition reads is billed, %s per read unit, before the filter or count", figure.Bytes(f.limitValue(0))),
		why:   "DynamoDB applies a filter, and counts, after reading: the call pays for and waits on every item evaluated, so its cost grows with the partition, not with the answer.",
		fix:   fix,
	}
}

func renderProjection(f Finding) sentences {
	m, n := f.Measured, f.Names
	return sentences{
		found: fmt.Sprintf("%s projects ALL, but its readers (%s) need only %s; %s of its %s is in unread attributes (%s)",
			f.Target, strings.Join(n["readers"], ", "), strings.Join(n["needed"], ", "), figure.Bytes(m["unread_bytes"]),
			figure.Bytes(m["entry_bytes"]), strings.Join(n["unread"], ", ")),
		limit: "an index entry is billed and stored at its full projected size",
		why: "every table write that touches a projected attribute is written again to the index, and storage is billed twice, " +
			"for attributes no reader of the index uses.",
		fix: "project KEYS_ONLY or INCLUDE the attributes the readers declare (an index's projection is fixed at creation, " +
			"so plan it before load).",
	}
}

// plural renders n things: "1 key value", "2 key values".
func plural(n int, thing string) string { return figure.Count(n, thing, thing+"s") }

// rateText renders a growth in bytes per entity: to two significant
// digits below 10 B, else as bytesText.
func rateText(b float64) string {
	if b < 10 {
		return fmt.Sprintf("%.2g B", b)
	}
	return figure.Bytes(int(math.Round(b)))
}
