package lint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/accountpool"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/internal/lint"
)

// where is a finding's check, target and pattern (and, for a hot item,
// its key): what the specs pin down, leaving the measured figures free to
// move with the fixtures.
func where(fs []lint.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s %s %s", f.Check, f.Target, f.Pattern)
		if f.Check == lint.CheckHotItem {
			out[i] += " " + f.Keys[0].Key
		}
	}
	return out
}

// linted memoizes lint.Run of each seed design at its defaults, which two
// specs read: seeding every scenario of a design is the suite's cost.
var linted = map[string][]lint.Finding{}

func runSeeded(ctx SpecContext, d designs.Design) []lint.Finding {
	if fs, ok := linted[d.Name]; ok {
		return fs
	}
	fs, err := lint.Run(ctx, d)
	Expect(err).NotTo(HaveOccurred())
	linted[d.Name] = fs
	return fs
}

// hot is the where of a hot-item finding on the table.
func hot(p designs.PatternID, key string) string { return "hot-item table " + string(p) + " " + key }

var _ = Describe("the five seed designs", func() {
	DescribeTable("report their known risks and nothing else",
		func(ctx SpecContext, d designs.Design, want []string, mentions []string) {
			fs := runSeeded(ctx, d)
			Expect(where(fs)).To(ConsistOf(want))
			text := ""
			for _, f := range fs {
				Expect(f.Design).To(Equal(d.Name))
				Expect([]string{f.LimitText, f.Found, f.Why, f.Fix}).NotTo(ContainElement(BeEmpty()), "every finding says what, the limit, why and the fix")
				text += f.Found + "\n"
			}
			for _, m := range mentions {
				Expect(text).To(ContainSubstring(m))
			}
		},
		Entry("invoicing: per-client partitions, bounded transactions and queries: no alarm; no scenario creates an account", invoicing.Design,
			[]string{"not-probed table " + string(invoicing.CreateAccountID)},
			[]string{"not probed: AP-01, no step of invoicing/month-end, invoicing/big-client calls it"}),
		Entry("shop: constant USER, PROD, CAT and BRAND partitions, the LSI on them, status and user partitions on GSI1", shop.Design,
			[]string{
				"partition-key table ", "partition-key GSI1 ", "partition-key LSI1 ", "lsi-collection LSI1 ",
			},
			[]string{"USER (", "PROD (", "CAT (", "BRAND (", "ORDER#STATUS#PENDING"}),
		Entry("accountpool: every pattern that adds to a status set grows it toward 400 KB, and rewrites it on every call, in both scenarios", accountpool.Design,
			[]string{
				"item-growth table " + string(accountpool.AddAccountID),
				"item-growth table " + string(accountpool.MarkAccountAvailableID),
				"item-growth table " + string(accountpool.CreateLeaseID),
				"item-growth table " + string(accountpool.DeleteLeaseID),
				hot(accountpool.AddAccountID, "account_status#all"), hot(accountpool.AddAccountID, "account_status#initial"),
				hot(accountpool.MarkAccountAvailableID, "account_status#available"), hot(accountpool.MarkAccountAvailableID, "account_status#initial"),
				hot(accountpool.MarkAccountAvailableID, "account_status#leased"),
				hot(accountpool.CreateLeaseID, "account_status#available"), hot(accountpool.CreateLeaseID, "account_status#leased"),
				hot(accountpool.CreateLeaseID, "lease_status#active"),
				hot(accountpool.DeleteLeaseID, "account_status#available"), hot(accountpool.DeleteLeaseID, "account_status#leased"),
				hot(accountpool.DeleteLeaseID, "lease_status#active"),
				hot(accountpool.RemoveAccountID, "account_status#all"), hot(accountpool.RemoveAccountID, "account_status#available"),
				hot(accountpool.RemoveAccountID, "account_status#initial"), hot(accountpool.RemoveAccountID, "account_status#leased"),
			},
			[]string{"account_status#all", "writes account_status#available on 100 of 100 calls in accountpool/lease-churn",
				"hot in accountpool/lease-rush too"}),
		Entry("agencies: GSI1 partitions by item type; deleting an agency queries its members first, which the in-memory table cannot serve", agencies.Design,
			[]string{"partition-key GSI1 ", "not-probed table " + string(agencies.DeleteAgencyID)},
			[]string{"Agency (", "Member (", "not probed: AP-03 in agencies/tenant-admin, 0 of 100 calls succeeded: ", "Query: not served by the in-memory table"}),
		Entry("services: ByYear's yearly partition, and the seed's four voucher programs on AwaitingVoucher", services.Design,
			[]string{"partition-key ByYear ", "partition-key AwaitingVoucher "},
			[]string{"YPK"}),
	)
})

var _ = Describe("the hot-item check", func() {
	It("gives each item the rate at which its pattern's writes fill one partition", func(ctx SpecContext) {
		fs := runSeeded(ctx, accountpool.Design)
		n := 0
		for _, f := range fs {
			if f.Check != lint.CheckHotItem {
				continue
			}
			n++
			m := f.Measured
			Expect(m["calls"]).To(BeNumerically(">=", lint.MinEntries), f.Found)
			Expect(float64(m["rewrites"])).To(BeNumerically(">=", lint.HotItemShare*float64(m["calls"])), f.Found)
			wcu, rate := float64(m["wcu_per_call"]), float64(m["calls_per_second_at_limit"])
			Expect(wcu).To(BeNumerically(">=", 1), f.Found)
			// wcu_per_call is rounded up from the units a call writes, the rate
			// rounded down from 1,000 over those units.
			Expect(rate).To(And(BeNumerically("<=", ddbitem.PartitionWCU/max(wcu-1, 1)), BeNumerically(">", ddbitem.PartitionWCU/wcu-1)), f.Found)
			Expect(f.Limit.Values[0].Value).To(BeEquivalentTo(ddbitem.PartitionWCU))
		}
		Expect(n).To(BeNumerically(">", 0))
	})
})

var _ = Describe("declared checks", func() {
	s := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "GSI1", PK: "G1PK", SK: "G1SK"}}}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	items := func(n int) []ddbitem.Item {
		var out []ddbitem.Item
		for i := range n {
			id := fmt.Sprintf("%04d", i)
			out = append(out, ddbitem.Item{"PK": str("THING#" + id), "SK": str("THING#" + id), "Type": str("Thing"),
				"G1PK": str("OWNER#" + id), "G1SK": str(id), "Name": str("name " + id), "Blob": str(strings.Repeat("x", 200))})
		}
		return out
	}
	base := func(p designs.Pattern) designs.Design {
		return designs.Design{Name: "t", Schema: s, Patterns: []designs.Pattern{p}}
	}
	DescribeTable("flag what the catalog declares",
		func(p designs.Pattern, want []string) {
			fs := lint.CheckItems(base(p), 200, items(100), items(200))
			Expect(where(fs)).To(ConsistOf(want))
		},
		Entry("a Scan", designs.Pattern{ID: "AP-01", Name: "all", Op: designs.Scan, Index: designs.MainTable, Pages: true},
			[]string{"scan table AP-01"}),
		Entry("a Query without pages or bound", designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable},
			[]string{"unpaged-query table AP-01"}),
		Entry("a Query that reads every page itself", designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable, AllPages: true},
			[]string{}),
		Entry("a Query bounded far below 1 MB", designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable, MaxItems: 10},
			[]string{}),
		Entry("a Query whose bound passes 1 MB", designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable, MaxItems: 100_000},
			[]string{"unpaged-query table AP-01"}),
		Entry("a transaction with no bound", designs.Pattern{ID: "AP-01", Name: "t", Op: designs.TransactWriteItems, Index: designs.MainTable, Unbounded: true},
			[]string{"transaction-size table AP-01"}),
		Entry("a transaction bound above 100", designs.Pattern{ID: "AP-01", Name: "t", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 101},
			[]string{"transaction-size table AP-01"}),
		Entry("a transaction bound at 100", designs.Pattern{ID: "AP-01", Name: "t", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 100},
			[]string{}),
		Entry("an ALL projection whose reader needs only Name", designs.Pattern{ID: "AP-01", Name: "by owner", Op: designs.Query, Index: "GSI1", Pages: true, Reads: []string{"Name"}},
			[]string{"projection-all GSI1 "}),
		Entry("an ALL projection whose reader declares nothing", designs.Pattern{ID: "AP-01", Name: "by owner", Op: designs.Query, Index: "GSI1", Pages: true},
			[]string{}),
		Entry("a Query that filters", designs.Pattern{ID: "AP-01", Name: "by owner", Op: designs.Query, Index: "GSI1", Pages: true, Filters: []string{"Name"}},
			[]string{"filtered-read GSI1 AP-01"}),
		Entry("a Query that counts", designs.Pattern{ID: "AP-01", Name: "how many", Op: designs.Query, Index: designs.MainTable, MaxItems: 1, Counts: true},
			[]string{"filtered-read table AP-01"}),
	)

	It("measures what a filtered read pays for: the largest partition of its target, and the read units of reading it whole", func() {
		p := designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable, Pages: true, Filters: []string{"Name"}}
		d := base(p)
		d.Schema.PK = "Type" // every item on one partition
		fs := lint.CheckItems(d, 200, items(100), items(200))
		Expect(where(fs)).To(ContainElement("filtered-read table AP-01"))
		var f lint.Finding
		for _, x := range fs {
			if x.Check == lint.CheckFilteredRead {
				f = x
			}
		}
		bytes := 0
		for _, it := range items(200) {
			bytes += ddbitem.Size(it)
		}
		Expect(f.Measured).To(Equal(map[string]int{"largest_partition_entries": 200, "largest_partition_bytes": bytes}))
		Expect(f.Found).To(ContainSubstring(fmt.Sprintf("about %d read units", (bytes+4095)/4096)))
		Expect(f.Fix).To(ContainSubstring("composite sort key"))
	})

	It("flags a constant partition key that grows with the pool, not per-entity keys", func() {
		constant := func(n int) []ddbitem.Item {
			out := items(n)
			for _, it := range out {
				it["G1PK"] = str("ALL")
			}
			return out
		}
		d := designs.Design{Name: "t", Schema: s}
		Expect(where(lint.CheckItems(d, 200, constant(100), constant(200)))).To(ConsistOf("partition-key GSI1 "))
		Expect(lint.CheckItems(d, 200, items(100), items(200))).To(BeEmpty())
	})

	It("labels entries by the type attribute the schema declares", func() {
		labelled := func(n int) []ddbitem.Item {
			out := items(n)
			for i, it := range out {
				it["G1PK"] = str("ALL")
				delete(it, "Type")
				it["Kind"] = str([]string{"Warehouse", "Shipment"}[i%2])
				it["express"] = str("yes") // an attribute that says nothing of the type
			}
			return out
		}
		withType := s
		withType.TypeAttribute = "Kind"
		fs := lint.CheckItems(designs.Design{Name: "t", Schema: withType}, 200, labelled(100), labelled(200))
		Expect(fs).To(HaveLen(1))
		var types []string
		for _, t := range fs[0].Types {
			types = append(types, t.Type)
		}
		Expect(types).To(ConsistOf("Shipment", "Warehouse"))
		Expect(fs[0].Found).To(ContainSubstring("Warehouse entries stay on 1 key value"))
	})

	It("carries its figures as numbers in lint -json, and renders its sentence from them", func() {
		constant := func(n int) []ddbitem.Item {
			out := items(n)
			for _, it := range out {
				it["G1PK"] = str("ALL")
			}
			return out
		}
		fs := lint.CheckItems(designs.Design{Name: "t", Schema: s}, 200, constant(100), constant(200))
		var out bytes.Buffer
		Expect(lint.WriteJSON(&out, fs)).To(Succeed())
		var got []struct {
			Check, Attribute string
			Pool             int
			Limit            struct{ Values []struct{ Value int64 } }
			Measured         map[string]int
			Keys             []struct {
				Key     string
				Entries int
				Share   float64
			}
			Types []struct {
				Type        string
				Keys        int
				FromEntries int `json:"from_entries"`
				Entries     int
			}
			Found string
		}
		Expect(json.Unmarshal(out.Bytes(), &got)).To(Succeed())
		Expect(got).To(HaveLen(1))
		f := got[0]
		Expect([]any{f.Check, f.Attribute, f.Pool}).To(Equal([]any{"partition-key", "G1PK", 200}))
		Expect(f.Limit.Values).To(HaveLen(2))
		Expect([]int64{f.Limit.Values[0].Value, f.Limit.Values[1].Value}).To(Equal([]int64{3000, 1000}))
		Expect(f.Measured).To(Equal(map[string]int{"entries": 200, "distinct_keys": 1}))
		Expect(f.Keys).To(HaveLen(1))
		Expect([]any{f.Keys[0].Key, f.Keys[0].Entries, f.Keys[0].Share}).To(Equal([]any{"ALL", 200, 1.0}))
		Expect(f.Types).To(HaveLen(1))
		Expect([]any{f.Types[0].Type, f.Types[0].Keys, f.Types[0].FromEntries, f.Types[0].Entries}).To(Equal([]any{"Thing", 1, 100, 200}))
		Expect(f.Found).To(Equal("constant or low-cardinality partition key G1PK: ALL (200 entries) of 200 entries at pool 200; " +
			"ALL holds 100% of the entries; only 1 distinct key value for 200 entries; Thing entries stay on 1 key value while they grow from 100 to 200"))
	})

	// decode reads lint -json as untyped JSON, so that a figure sent as
	// text fails: a JSON number decodes as float64, never as string.
	decode := func(fs []lint.Finding) []map[string]any {
		var out bytes.Buffer
		Expect(lint.WriteJSON(&out, fs)).To(Succeed())
		var got []map[string]any
		Expect(json.Unmarshal(out.Bytes(), &got)).To(Succeed())
		return got
	}
	largest := 0
	for _, it := range items(200) {
		largest = max(largest, ddbitem.Size(it))
	}
	DescribeTable("carry the catalog's figures as numbers in lint -json, and say them in the text",
		func(p designs.Pattern, measured map[string]any, limit float64, unit string, unbounded bool, says []string) {
			fs := lint.CheckItems(base(p), 200, items(100), items(200))
			Expect(fs).To(HaveLen(1))
			got := decode(fs)[0]
			Expect(got).To(HaveKeyWithValue("target", lint.Table))
			Expect(got).To(HaveKeyWithValue("pattern", "AP-01"))
			if measured == nil {
				Expect(got).NotTo(HaveKey("measured"))
			} else {
				Expect(got).To(HaveKeyWithValue("measured", measured))
			}
			Expect(got["limit"]).To(HaveKeyWithValue("values", []any{map[string]any{"value": limit, "unit": unit}}))
			Expect(got["limit"]).To(HaveKeyWithValue("source", HavePrefix("https://docs.aws.amazon.com/amazondynamodb/")))
			Expect(got["unbounded"] == true).To(Equal(unbounded))
			text := fs[0].Found + "\n" + fs[0].LimitText + "\n" + fs[0].Why
			for _, s := range says {
				Expect(text).To(ContainSubstring(s))
			}
			Expect(fs[0].Warning()).To(ContainSubstring(fs[0].Found))
		},
		Entry("a transaction bound above 100: its actions and the limit",
			designs.Pattern{ID: "AP-01", Name: "t", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 101},
			map[string]any{"max_actions": 101.0}, 100.0, "actions per transaction", false,
			[]string{"needs 101 actions", "100 actions per transaction", "more than 100 actions"}),
		Entry("a transaction with no bound: no action count, flagged unbounded",
			designs.Pattern{ID: "AP-01", Name: "t", Op: designs.TransactWriteItems, Index: designs.MainTable, Unbounded: true},
			nil, 100.0, "actions per transaction", true,
			[]string{"no bound", "100 actions per transaction"}),
		Entry("a Query whose bound passes 1 MB: items per call, the largest entry and their product",
			designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable, MaxItems: 100_000},
			map[string]any{"max_items": 100_000.0, "largest_entry_bytes": float64(largest), "page_bytes": float64(100_000 * largest)},
			float64(1<<20), "bytes per Query call", false,
			[]string{"up to 100,000 entries", fmt.Sprintf("of up to %d B", largest), "1 MB per Query call", "stops a Query at 1 MB"}),
		Entry("a Query with no bound: the largest entry only",
			designs.Pattern{ID: "AP-01", Name: "q", Op: designs.Query, Index: designs.MainTable},
			map[string]any{"largest_entry_bytes": float64(largest)}, float64(1<<20), "bytes per Query call", false,
			[]string{"declares no MaxItems", "1 MB per Query call"}),
	)

	It("carries an item's growth as numbers in lint -json: elements, bytes, growth per entity, entities at the limit", func() {
		// group is one item whose set gains an element per entity.
		group := func(n int) ddbitem.Item {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("%04d", i)
			}
			return ddbitem.Item{"PK": str("GROUP"), "SK": str("GROUP"), "Members": &types.AttributeValueMemberSS{Value: ids}}
		}
		d := base(designs.Pattern{ID: "AP-02", Name: "join", Op: designs.UpdateItem, Index: designs.MainTable, Grows: []string{"Members"}})
		fs := lint.CheckItems(d, 200, append(items(100), group(100)), append(items(200), group(200)))
		Expect(where(fs)).To(ConsistOf("item-growth table AP-02"))

		// What the check must find, from ddbitem's size rules.
		size, old := ddbitem.Size(group(200)), ddbitem.Size(group(100))
		elem := (size - len("PK") - 5 - len("SK") - 5 - len("Members")) / 200
		grow := float64(size-old) / 100
		atLimit := 200 + int(float64(409600-size)/grow)
		Expect(elem).To(Equal(4), "an element is its 4 bytes")

		got := decode(fs)[0]
		Expect(got).To(HaveKeyWithValue("attribute", "Members"))
		Expect(got).To(HaveKeyWithValue("pool", 200.0))
		Expect(got).To(HaveKeyWithValue("measured", map[string]any{
			"elements": 200.0, "element_bytes": float64(elem), "appends_to_limit": float64((409600 - size) / elem)}))
		Expect(got).To(HaveKeyWithValue("keys", []any{map[string]any{
			"key": "GROUP / GROUP", "bytes": float64(size), "growth_bytes_per_entity": grow, "entities_at_limit": float64(atLimit)}}))
		Expect(got["limit"]).To(HaveKeyWithValue("values", []any{map[string]any{"value": 409600.0, "unit": "bytes per item"}}))

		Expect(fs[0].Found).To(Equal(fmt.Sprintf("AP-02 appends to Members; the largest seeded item holding it (GROUP / GROUP) is %d B "+
			"with 200 elements of about 4 B: %s more appends reach 400 KB; growing 4 B per entity, it gets there at about %s entities",
			size, thousands((409600-size)/elem), thousands(atLimit))))
		Expect(fs[0].LimitText).To(Equal("400 KB per item"))
		Expect(fs[0].Why).To(ContainSubstring("past 400 KB"))
	})
})

// thousands renders n with thousands separators, as the lint's text does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
