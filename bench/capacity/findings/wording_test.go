package findings

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// noFaults fails t when the claims that wrote r's findings broke their
// rule.
func noFaults(t *testing.T, r capacity.Report) {
	t.Helper()
	if _, bad := findings(r); len(bad) > 0 {
		t.Errorf("findings' faults: %q", bad)
	}
}

// Every item carries the same owner on the GSI, whose partition is the
// first limit on its write side: the first finding names the side, the
// reason, the metric and the back-pressure, each marked.
func TestFirstFindingNamesAGSIWritePartitionsReasonAndBackPressure(t *testing.T) {
	byOwner := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByOwner", PK: "O", SK: "OS"}}}
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, put(fmt.Sprintf("K%d", i), "O", s("OWNER#1"), "OS", s(fmt.Sprint(i))))
	}
	r := analyze(capacity.Model{Schema: byOwner, Duration: 10 * time.Second}, calls...)
	want := "; it binds on the write side, where DynamoDB answers IndexWriteKeyRangeThroughputExceeded (CloudWatch counts it in WriteKeyRangeThroughputThrottleEvents) [documented: throttling-reason, throttling-metrics]; as a GSI's writes, it throttles the table's writes that feed the index too (back-pressure)"
	if !strings.Contains(r.Findings[0], want) {
		t.Errorf("first finding:\n%s\nwant it to hold:\n%s", r.Findings[0], want)
	}
	noFaults(t, r)
}

// Three partitions within 5% of each other: the first finding says
// another run may reach one of the other two first; far apart, it names
// no tie.
func TestFirstFindingNamesTheLimitsTiedWithIt(t *testing.T) {
	placed := map[string]int{"A": 0, "B": 1, "C": 2, "D": 3}
	var calls []pricing.Observation
	for key, n := range map[string]int{"A": 100, "B": 98, "C": 96, "D": 80} {
		calls = append(calls, spreadPuts(key, n)...)
	}
	m := capacity.Model{Schema: schema, Duration: 10 * time.Second, Placed: func(space, key string) (int, int) { return placed[key], 4 }}
	r := analyze(m, calls...)
	want := `; tied within 5% with the partition of key "B" of the table (writes, TableWriteKeyRangeThroughputExceeded) at 3,816 requests/s, the partition of key "C" of the table (writes, TableWriteKeyRangeThroughputExceeded) at 3,896 requests/s [inferred: limit-tie, partitions-on-demand, placement, hot-keys, light-keys], so another run may reach one of them first`
	if !strings.Contains(r.Findings[0], want) {
		t.Errorf("first finding:\n%s\nwant it to hold:\n%s", r.Findings[0], want)
	}
	noFaults(t, r)

	calls = append(spreadPuts("A", 100), spreadPuts("B", 50)...)
	if r := analyze(m, calls...); strings.Contains(r.Findings[0], "tied") {
		t.Errorf("first finding names ties at half the load: %s", r.Findings[0])
	}
}

// Twenty shard keys of equal traffic on one partition: the first finding
// says the named key carries a twentieth of its partition's load.
func TestFirstFindingSaysASpreadPartitionsKeyCarriesLittle(t *testing.T) {
	var calls []pricing.Observation
	for i := range 20 {
		calls = append(calls, repeat(10, put(fmt.Sprintf("SHARD#%02d", i)))...)
	}
	for _, sc := range []designs.Schema{schema, {PK: "PK", SK: "SK", Billing: types.BillingModeProvisioned, RCU: 30000, WCU: 10000}} {
		m := capacity.Model{Schema: sc, Duration: 10 * time.Second, TopN: 20, Placed: func(space, key string) (int, int) { return 0, 4 }}
		r := analyze(m, calls...)
		if r.FirstLimit == nil {
			t.Fatalf("%s: no first limit", sc.Billing)
		}
		if want := fmt.Sprintf("; %q carries only 5%% of its partition's load, the rest spread over other keys [inferred: spread-partition]", r.FirstLimit.Key); !strings.Contains(r.Findings[0], want) {
			t.Errorf("first finding:\n%s\nwant it to hold:\n%s", r.Findings[0], want)
		}
	}
}

// The holds on one event run one at a time: the first finding names the
// event item's transactions, with the pattern, the hold and what to
// change, marked inferred, and the second the limits after it.
func TestFirstFindingIsTheItemEveryTransactionWrites(t *testing.T) {
	m := capacity.Model{Schema: schema, Duration: 10 * time.Second, PatternHold: map[designs.PatternID]time.Duration{"AP-01": 20 * time.Millisecond, "AP-02": time.Millisecond},
		ItemConflicts: map[string]int64{"EVENT#1 / EVENT": 826}}
	r := analyze(m, onSale()...)
	want := `What stops this design first is the transactions on item "EVENT#1 / EVENT": the transactions that write it run one at a time, each AP-01 call holding it about 20.0 ms as the scenario declares, so it takes about 50 of them a second, at 100 requests/s of this mix (5× the measured 20 requests/s) [inferred: conflict-ceiling]; DynamoDB cancels the transactions that meet there with reason TransactionConflict, which CloudWatch counts in TransactionConflict; the run met 826 item-level conflicts on it; to lift it, shard the counter`
	if !strings.HasPrefix(r.Findings[0], want) {
		t.Errorf("first finding:\n%s\nwant it to begin:\n%s", r.Findings[0], want)
	}
	if !strings.HasPrefix(r.Findings[1], `The limits after it, in order: the partition of key "EVENT#1" of the table at 250 requests/s, mostly AP-01 (TableWriteKeyRangeThroughputExceeded) [inferred:`) {
		t.Errorf("second finding: %s", r.Findings[1])
	}
	noFaults(t, r)
}

// The conflict limit rests on the hold measured on the service; the test
// bed's hold is shown beside it in the first finding, labelled, and not
// used.
func TestFirstFindingShowsTheTestBedsHoldBesideIt(t *testing.T) {
	for _, bed := range []time.Duration{5 * time.Millisecond, 600 * time.Millisecond, 0} {
		m := capacity.Model{Schema: schema, Duration: 10 * time.Second, PatternCalls: map[designs.PatternID]int64{"AP-01": 100, "AP-02": 100}}
		if bed > 0 {
			m.TestBedHold = map[designs.PatternID]time.Duration{"AP-01": bed, "AP-02": bed / 5}
		}
		r := analyze(m, onSale()...)
		want := "each AP-01 call holding it about 25.3 ms on DynamoDB"
		if bed > 0 {
			want += " (its calls took " + millis(bed.Seconds()) + " on the test bed, a measurement of the test bed, not used)"
		}
		if !strings.Contains(r.Findings[0], want+", so it takes about") {
			t.Errorf("first finding:\n%s\nwant it to say %q", r.Findings[0], want)
		}
		noFaults(t, r)
	}
}

// A hot key read eventually consistently gets the measured figure beside
// the model's, its consistency on the table marked inferred (its
// pattern's); strongly consistent reads of the same key do not.
// Source: https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/
func TestEventualReadsOfAHotKeyMayBeAThirdLow(t *testing.T) {
	for _, consistent := range []bool{false, true} {
		get := pricing.Observation{Pattern: "AP-02", Op: designs.GetItem, Consistent: consistent, Reads: []ddbitem.Item{sized("HOT", "B", 4000)}}
		r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second}, repeat(100, get)...)
		findings := strings.Join(r.Findings, "\n")
		if said := strings.Contains(findings, "may be a third low"); said == consistent {
			t.Errorf("consistent %v: findings say a third low: %v; want %v", consistent, said, !consistent)
		}
		if cites := strings.Contains(findings, "eventually consistent [inferred: eventual-by-pattern]"); cites != !consistent {
			t.Errorf("consistent %v: findings cite eventual-by-pattern: %v, want %v:\n%s", consistent, cites, !consistent, findings)
		}
	}
}

// At twice a hot key's partition limit, the findings give the replay at
// the target rate.
func TestFindingsGiveTheReplayAtTheTargetRate(t *testing.T) {
	put := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 2000}, repeat(100, put)...)
	if !slices.ContainsFunc(r.Findings, func(s string) bool { return strings.Contains(s, "Replayed at the target 2,000 requests/s") }) {
		t.Errorf("findings %q lack the replay at the target rate", r.Findings)
	}
}

// writesOnKeysOfTheirOwn is 100 puts of 900 bytes, each on a key of its
// own: ten hot keys on a new table's four partitions, and its warm
// ceiling.
func writesOnKeysOfTheirOwn() []pricing.Observation {
	var calls []pricing.Observation
	for i := range 100 {
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(fmt.Sprintf("K%d", i), "A", 900)}}})
	}
	return calls
}

// A new on-demand table's warm throughput is named, documented, and a new
// GSI's taken to serve as much, inferred.
func TestFindingsNameTheWarmCeiling(t *testing.T) {
	r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 10000}, writesOnKeysOfTheirOwn()...)
	if !strings.Contains(strings.Join(r.Findings, "\n"), "or a linear combination of the two (its warm throughput): this mix reaches it on the table at 4,000 requests/s (400× the measured rate) [documented: warm-reads, warm-writes, warm-combination]; a new GSI is taken to serve as much [inferred: warm-gsi]") {
		t.Errorf("Findings = %q, want the warm ceiling named", r.Findings)
	}
}

// On a new table's four partitions ten hot keys always share: the
// findings say so and name the keys each partition holds under this
// placement, with the rate each would reach alone, instead of odds of
// 100 %.
func TestOddsNameTheKeysThatShare(t *testing.T) {
	r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second}, writesOnKeysOfTheirOwn()...)
	all := strings.Join(r.Findings, "\n")
	if strings.Contains(all, "p = 100") || !strings.Contains(all, "with 10 hot keys on 4 partitions some share on any placement") {
		t.Errorf("Findings = %s\nwant no odds of 100 %%, and ten hot keys on four partitions said to share", all)
	}
	sh := r.Ceiling.Sharing
	if len(sh.Shared) < 2 {
		t.Fatalf("Sharing.Shared = %+v, want the partitions that hold two hot keys or more", sh.Shared)
	}
	for _, p := range sh.Shared {
		if want := fmt.Sprintf("on partition %d, %q (alone 100,000 requests/s)", p.Partition, p.Keys[0]); !strings.Contains(all, want) || !strings.Contains(all, fmt.Sprintf("%q (100,000)", p.Keys[1])) {
			t.Errorf("Findings lack %q:\n%s", want, all)
		}
	}
}

// An index key that gathers bytes with every order is named, though it
// has no limit.
func TestFindingsNameAGrowingIndexKey(t *testing.T) {
	var calls []pricing.Observation
	for i := range 30 {
		order := fmt.Sprintf("ORDER#%d", i)
		calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: with(sized(order, "A", 300), "G", s("WAREHOUSE#1"), "GS", s(order))}}})
		for _, sk := range []string{"B", "C"} {
			calls = append(calls, pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized(order, sk, 200)}}})
		}
	}
	r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second}, calls...)
	if !strings.Contains(strings.Join(r.Findings, "\n"), `Partition key "WAREHOUSE#1" of index GSI1 gathered`) {
		t.Errorf("Findings = %q, want the growing GSI key named", r.Findings)
	}
}

// A hot key's partition, with the light keys placed there, is named with
// the rate at which it reaches its limit; and the first limit and the
// forecast at the target rate are worded with their marks.
func TestFindingsNameTheHotKeysPartitionAndTheForecast(t *testing.T) {
	calls, placed := lightKeysPlaced()
	r := analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TopN: 1, Placed: placed}, calls...)
	if f := strings.Join(r.Findings, "\n"); !strings.Contains(f, "its partition, with every key this run placed there, reaches 3,000 RCU/s or 1,000 WCU/s per partition at 1,500 requests/s of this mix") {
		t.Errorf("Findings = %q, want HOT's partition at 1,500 requests/s", r.Findings)
	}

	hot := pricing.Observation{Pattern: "AP-01", Op: designs.PutItem, Writes: []pricing.Write{{After: sized("HOT", "A", 1000)}}}
	r = analyze(capacity.Model{Schema: schema, Duration: 10 * time.Second, TargetRate: 5000}, repeat(100, hot)...)
	all := strings.Join(r.Findings, "\n")
	for _, want := range []string{
		`The first limit this mix reaches (forecast) is 3,000 RCU/s or 1,000 WCU/s per partition on partition key "HOT" of the table, at 1,000 requests/s (100× the measured 10 requests/s), driven mostly by AP-01, on its write side, where DynamoDB answers TableWriteKeyRangeThroughputExceeded [inferred: partitions-on-demand, placement, hot-keys, light-keys].`,
		`At the target 5,000 requests/s about 80% of requests would be throttled`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("Findings =\n%s\nwant a finding containing %q", all, want)
		}
	}
}
