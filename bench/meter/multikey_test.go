package meter_test

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// keysSchema has multi-attribute GSI keys of mixed types (partition: a
// string, a number, a binary; sort: two strings and a number), one of them
// KEYS_ONLY, one with a single partition attribute and a multi-attribute
// sort key, and a GSI of the classic shape beside them.
var keysSchema = designs.Schema{PK: "PK", SK: "SK",
	Types: map[string]types.ScalarAttributeType{"h2": types.ScalarAttributeTypeN, "h3": types.ScalarAttributeTypeB, "c": types.ScalarAttributeTypeN},
	GSIs: []designs.Index{
		{Name: "Three", PKs: []string{"h1", "h2", "h3"}, SKs: []string{"a", "b", "c"}},
		{Name: "Slim", PKs: []string{"h1", "h2"}, SKs: []string{"a", "b"}, Projection: types.ProjectionTypeKeysOnly},
		{Name: "HashOne", PK: "h1", SKs: []string{"a", "c"}},
		{Name: "Classic", PK: "GP", SK: "GS"},
	},
}

func bin(b ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }

// keyItems are the items every case reads: one partition of Three whose
// sort key orders strings by their bytes and numbers by value, attribute
// by attribute; items that lack one key attribute each; a partition told
// apart by its second attribute only.
func keyItems() []ddbitem.Item {
	row := func(id string, kv ...any) ddbitem.Item {
		return item("K#"+id, "S", kv...)
	}
	full := func(id, a, b, c string) ddbitem.Item {
		return row(id, "h1", "t1", "h2", n("1"), "h3", bin(1), "a", a, "b", b, "c", n(c))
	}
	return []ddbitem.Item{
		full("01", "open", "x", "10"),
		full("02", "open", "x", "9"),
		full("03", "open", "x", "-1"),
		full("04", "open", "x", "1e2"),
		full("05", "open", "y", "1.5"),
		full("06", "closed", "x", "3"),
		full("07", "Open", "x", "1"),
		full("08", "op", "x", "0"),
		row("09", "h1", "t1", "h2", n("1"), "h3", bin(1), "a", "open", "b", "x"),              // no c: not in Three
		row("10", "h1", "t1", "h2", n("1"), "a", "open", "b", "x", "c", n("5")),               // no h3: not in Three
		row("11", "h1", "t1", "h2", n("1.0"), "h3", bin(1), "b", "x", "c", n("5")),            // no a: in neither
		row("12", "h1", "t1", "h2", n("2"), "h3", bin(1), "a", "open", "b", "x", "c", n("5")), // h2 2: another partition
		row("13", "h1", "t2", "h2", n("1"), "h3", bin(1, 0), "a", "open", "b", "x", "c", n("5")),
		row("14", "GP", "g", "GS", "ORDER#2"),
		row("15", "GP", "g", "GS", "ORDER#10"),
		row("16", "GP", "g", "GS", "NOTE#1"),
	}
}

// keyCase is one Query: its index, key condition and order.
type keyCase struct {
	index, expr string
	values      map[string]types.AttributeValue
	names       map[string]string
	backward    bool
}

// Values the cases name.
var keyValues = map[string]types.AttributeValue{
	":h1": s("t1"), ":h2": n("1"), ":h2b": n("1.0"), ":h3": bin(1),
	":open": s("open"), ":op": s("op"), ":x": s("x"), ":c5": n("5"), ":lo": n("-1"), ":hi": n("9.5"),
	":g": s("g"), ":gs": s("ORDER#"),
}

const part3 = "h1 = :h1 AND h2 = :h2 AND h3 = :h3"

// kc is a case on index with the values its expression names.
func kc(index, expr string, opts ...func(*keyCase)) keyCase {
	c := keyCase{index: index, expr: expr, values: map[string]types.AttributeValue{}}
	toks := placeholders(expr)
	for _, p := range toks {
		c.values[p] = keyValues[p]
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func backward(c *keyCase) { c.backward = true }

// placeholders lists the :values an expression names.
func placeholders(expr string) []string {
	var out []string
	for i := 0; i < len(expr); i++ {
		if expr[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(expr) && (expr[j] == '_' || expr[j] >= 'a' && expr[j] <= 'z' || expr[j] >= 'A' && expr[j] <= 'Z' || expr[j] >= '0' && expr[j] <= '9') {
			j++
		}
		out = append(out, expr[i:j])
	}
	return out
}

// The rules floor: what ddbitem answers for a multi-attribute key (entries,
// order, key conditions and their refusals, entry sizes) is what DynamoDB
// Local 3.3.1 answers. Each row runs on both.
var _ = Describe("multi-attribute keys, as DynamoDB Local answers them", Ordered, Label("keys"), func() {
	var (
		tbl   string
		items []ddbitem.Item
		rules = keysSchema.ItemSchema()
	)
	BeforeAll(func(ctx SpecContext) {
		tbl = designs.TableName("keys", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, raw, keysSchema, tbl)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, tbl)).To(Succeed()) })
		items = keyItems()
		for _, it := range items {
			_, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl), Item: it})
			Expect(err).NotTo(HaveOccurred())
		}
	})

	ids := func(es []ddbitem.Item) []string {
		out := make([]string, 0, len(es))
		for _, e := range es {
			out = append(out, ddbitem.KeyText(e["PK"]))
		}
		return out
	}
	// local runs c on DynamoDB Local: the items in the order it returned
	// them, or its error.
	local := func(ctx SpecContext, c keyCase) ([]ddbitem.Item, error) {
		in := &dynamodb.QueryInput{TableName: aws.String(tbl), KeyConditionExpression: aws.String(c.expr),
			ExpressionAttributeValues: c.values, ExpressionAttributeNames: c.names, ScanIndexForward: aws.Bool(!c.backward)}
		if c.index != "" {
			in.IndexName = aws.String(c.index)
		}
		out, err := raw.Query(ctx, in)
		if err != nil {
			return nil, err
		}
		Expect(out.LastEvaluatedKey).To(BeEmpty(), "the cases fit one page")
		return out.Items, nil
	}
	ours := func(c keyCase) ([]ddbitem.Item, error) {
		return rules.Range(items, ddbitem.KeyRange{Index: c.index, Forward: !c.backward,
			Key: ddbitem.Condition{Expr: c.expr, Names: c.names, Values: c.values}})
	}

	DescribeTable("a Query reads the entries DynamoDB Local reads, in its order",
		func(ctx SpecContext, c keyCase) {
			want, err := local(ctx, c)
			Expect(err).NotTo(HaveOccurred())
			got, err := ours(c)
			Expect(err).NotTo(HaveOccurred())
			// Entries that tie on the index's key have no documented
			// order: the order is held on the key, the items as a set.
			Expect(indexKeys(rules, c.index, got)).To(Equal(indexKeys(rules, c.index, want)))
			Expect(ids(got)).To(ConsistOf(ids(want)))
			Expect(want).NotTo(BeEmpty(), "a case that reads nothing proves little")
		},
		Entry("the whole partition, every attribute of the sort key in turn", kc("Three", part3)),
		Entry("backward", kc("Three", part3, backward)),
		Entry("the partition given in another order", kc("Three", "h3 = :h3 AND h1 = :h1 AND h2 = :h2")),
		Entry("a number given as 1.0 names the partition of 1", kc("Three", "h1 = :h1 AND h2 = :h2b AND h3 = :h3")),
		Entry("the first sort attribute by equality", kc("Three", part3+" AND a = :open")),
		Entry("two sort attributes by equality", kc("Three", part3+" AND a = :open AND b = :x")),
		Entry("a range on the last of three", kc("Three", part3+" AND a = :open AND b = :x AND c > :c5")),
		Entry("BETWEEN on the last, backward", kc("Three", part3+" AND a = :open AND b = :x AND c BETWEEN :lo AND :hi", backward)),
		Entry("a range on the second", kc("Three", part3+" AND a = :open AND b > :x")),
		Entry("a range on the first", kc("Three", part3+" AND a >= :open")),
		Entry("begins_with on the first", kc("Three", part3+" AND begins_with(a, :op)")),
		Entry("the value on the left of its comparison", kc("Three", part3+" AND a = :open AND b = :x AND :c5 < c")),
		Entry("conditions in parentheses, names as placeholders", kc("Three", "(h1 = :h1 AND #h2 = :h2) AND (h3 = :h3 AND #a = :open)",
			func(c *keyCase) { c.names = map[string]string{"#h2": "h2", "#a": "a"} })),
		Entry("a KEYS_ONLY index keeps items that lack the other index's attributes", kc("Slim", "h1 = :h1 AND h2 = :h2")),
		Entry("one partition attribute, two sort attributes", kc("HashOne", "h1 = :h1 AND a = :open AND c > :c5")),
		Entry("a classic index beside them", kc("Classic", "GP = :g AND begins_with(GS, :gs)")),
	)

	DescribeTable("a Query that breaks the key rules is refused with DynamoDB Local's ValidationException",
		func(ctx SpecContext, c keyCase) {
			_, want := local(ctx, c)
			var wantAPI smithy.APIError
			Expect(errors.As(want, &wantAPI)).To(BeTrue(), "DynamoDB Local refused it: %v", want)
			_, got := ours(c)
			var gotAPI smithy.APIError
			Expect(errors.As(got, &gotAPI)).To(BeTrue(), "refused: %v", got)
			Expect(gotAPI.ErrorCode()).To(Equal(wantAPI.ErrorCode()))
			Expect(gotAPI.ErrorMessage()).To(Equal(wantAPI.ErrorMessage()))
		},
		Entry("a partition attribute left out", kc("Three", "h1 = :h1")),
		Entry("a partition attribute given a range", kc("Three", "h1 = :h1 AND h2 > :h2 AND h3 = :h3")),
		Entry("a partition attribute given begins_with", kc("Three", "begins_with(h1, :op) AND h2 = :h2 AND h3 = :h3")),
		Entry("the first sort attributes skipped", kc("Three", part3+" AND c > :c5")),
		Entry("the first sort attribute skipped", kc("Three", part3+" AND b = :x")),
		Entry("a range before the last attribute named", kc("Three", part3+" AND a > :open AND b = :x")),
		Entry("an attribute outside the key", kc("Three", part3+" AND PK = :x")),
		Entry("two conditions on one attribute", kc("Three", part3+" AND a = :open AND a > :op")),
		Entry("<>", kc("Three", part3+" AND a <> :open")),
		Entry("OR", kc("Three", part3+" OR a = :open")),
		Entry("IN", kc("Three", part3+" AND a IN (:open)")),
		Entry("NOT", kc("Three", "h1 = :h1 AND h2 = :h2 AND NOT h3 = :h3")),
		Entry("a function other than begins_with", kc("Three", part3+" AND attribute_exists(a)")),
		Entry("a string for a number attribute", kc("Three", "h1 = :h1 AND h2 = :x AND h3 = :h3")),
		Entry("begins_with on a number", kc("Three", part3+" AND a = :open AND b = :x AND begins_with(c, :c5)")),
		Entry("a sort attribute skipped under one partition attribute", kc("HashOne", "h1 = :h1 AND c > :c5")),
		Entry("a classic index without its partition key", kc("Classic", "GS = :gs")),
		Entry("a classic index's partition key given a range", kc("Classic", "GP > :g")),
		Entry("a classic index given three conditions", kc("Classic", "GP = :g AND begins_with(GS, :gs) AND h1 = :h1")),
	)

	It("pages a multi-attribute index with QueryPage as one Query reads it, and builds its key with KeyQuery", func(ctx SpecContext) {
		// HashOne: a cursor holds strings and numbers, not Three's binary.
		key, err := keysSchema.KeyQuery("HashOne").Equal("h1", "t1").Equal("a", "open").GreaterThanEqual("c", -1).Build()
		Expect(err).NotTo(HaveOccurred())
		whole, err := local(ctx, kc("HashOne", "h1 = :h1 AND a = :open AND c >= :lo"))
		Expect(err).NotTo(HaveOccurred())
		var paged []ddbitem.Item
		var after designs.Cursor
		for {
			page, next, err := keysSchema.QueryPage(ctx, raw, designs.PageQuery{Table: tbl, Index: "HashOne", Key: key, Size: 2, After: after})
			Expect(err).NotTo(HaveOccurred())
			paged = append(paged, page...)
			if next == "" {
				break
			}
			after = next
		}
		Expect(len(whole)).To(BeNumerically(">", 2), "more than one page")
		Expect(ids(paged)).To(Equal(ids(whole)))
	})

	It("refuses in KeyQuery, before any call, a key Local refuses, with Local's message", func(ctx SpecContext) {
		_, want := local(ctx, kc("Three", part3+" AND a > :open AND b = :x"))
		var wantAPI smithy.APIError
		Expect(errors.As(want, &wantAPI)).To(BeTrue())
		_, err := keysSchema.KeyQuery("Three").Equal("h1", "t1").Equal("h2", 1).Equal("h3", []byte{1}).
			GreaterThan("a", "open").Equal("b", "x").Build()
		Expect(err).To(MatchError(designs.ErrInvalidInput))
		var gotAPI smithy.APIError
		Expect(errors.As(err, &gotAPI)).To(BeTrue())
		Expect(gotAPI.ErrorMessage()).To(Equal(wantAPI.ErrorMessage()))
	})

	It("keeps in each index exactly the items that hold every one of its key attributes, with the attributes Local keeps", func(ctx SpecContext) {
		for _, ix := range rules.Indexes {
			out, err := raw.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(tbl), IndexName: aws.String(ix.Name)})
			Expect(err).NotTo(HaveOccurred())
			var want, got []string
			for _, e := range out.Items {
				want = append(want, fmt.Sprint(ddbitem.KeyText(e["PK"]), attrNames(e)))
			}
			for _, it := range items {
				if e := rules.Entry(ix, it); e != nil {
					got = append(got, fmt.Sprint(ddbitem.KeyText(e["PK"]), attrNames(e)))
				}
			}
			sort.Strings(want)
			sort.Strings(got)
			Expect(got).To(Equal(want), "index %s", ix.Name)
		}
	})

	It("charges each index's write by its entry's size, and a change of any key attribute as a delete and a put, as Local does", func(ctx SpecContext) {
		pad := func(k int) string { return string(slices.Repeat([]byte("z"), k)) }
		before := item("K#big", "S", "h1", pad(600), "h2", n("1"), "h3", bin(1), "a", pad(700), "b", "x", "c", n("1"), "Other", pad(3000))
		after := item("K#big", "S", "h1", pad(600), "h2", n("2"), "h3", bin(1), "a", pad(700), "b", "x", "c", n("1"), "Other", pad(3000))
		for _, w := range []pricing.Write{{After: before}, {Before: before, After: after}} {
			out, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl), Item: w.After, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			Expect(err).NotTo(HaveOccurred())
			want := map[string]float64{}
			for name, c := range out.ConsumedCapacity.GlobalSecondaryIndexes {
				want[name] = aws.ToFloat64(c.CapacityUnits)
			}
			got := map[string]float64{}
			for _, c := range pricing.Account(rules, pricing.Observation{Op: designs.PutItem, Writes: []pricing.Write{w}}) {
				if c.Target != designs.MainTable {
					got[c.Target] += c.WCU
				}
			}
			Expect(got).To(Equal(want))
		}
	})
})

// attrNames is the sorted names of e's attributes.
func attrNames(e ddbitem.Item) []string {
	names := make([]string, 0, len(e))
	for name := range e {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// indexKeys is the index key of each entry, in order, as text.
func indexKeys(rules ddbitem.Schema, index string, es []ddbitem.Item) []string {
	ix, ok := rules.Index(index)
	Expect(ok).To(BeTrue())
	out := make([]string, 0, len(es))
	for _, e := range es {
		var k []string
		for _, a := range ix.KeyAttrs() {
			t := ddbitem.KeyText(e[a])
			if ddbitem.TypeName(e[a]) == "N" {
				t = ddbitem.CanonicalNumber(t) // 1e2 and 100 are one number
			}
			k = append(k, ddbitem.TypeName(e[a])+":"+t)
		}
		out = append(out, fmt.Sprint(k))
	}
	return out
}
