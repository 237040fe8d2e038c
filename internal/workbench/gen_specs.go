package workbench

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// MaxSpecsPerPattern bounds the specs a pattern gets: the samples a get
// pattern reads, the partitions a query pattern lists. A model of
// thousands of samples proves its patterns on the first ones as well as
// on all, and make verify stays quick; the import says so in a note.
const MaxSpecsPerPattern = 100

func (d design) genSamples(s *scaffold.Source) {
	s.Code("package %s", d.Name)
	s.Code("// Samples are the model's sample items, facet by facet: the specs load")
	s.Code("// them and expect the patterns to return them; the fixtures load them,")
	s.Code("// then grow copies of them (Grown) for volume.")
	s.Code("var Samples = []Entity{")
	for _, x := range d.Samples() {
		s.Code("%s,", d.literal(x.Entity, x.Item, ""))
	}
	s.Code("}")
	s.Code("// Grown is e as the n-th copy of the samples: every part of its keys")
	s.Code("// passed through vary, so copies keep the samples' layouts and how many")
	s.Code("// items each partition holds. Each part name has its own copy numbers,")
	s.Code("// so parts that hold one value in a sample by chance differ in copies.")
	s.Code("func Grown(e Entity, n int, vary func(part string, n int) string) Entity {")
	s.Code("switch v := e.(type) {")
	copies := d.CopyNumbers()
	for _, e := range d.Entities {
		s.Code("case %s:", e.Go)
		for _, v := range e.Vars {
			s.Code("v.%[1]s = vary(v.%[1]s, %[2]s)", v.Go, copies.Expr(v))
		}
		s.Code("return v")
	}
	s.Code("}\nreturn e\n}")
}

func (d design) genSpecs(s *scaffold.Source) {
	sdk := ""
	if d.hasModelPatterns() {
		sdk = `"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"`
	}
	s.Code(`package %[1]s_test

import (
	%[2]s
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/%[1]s"
)

var _ = designs.ErrNotFound`, d.Name, sdk)
	if sdk != "" {
		s.Code("var _ types.AttributeValue")
	}
	all := d.Samples()
	capped, most := 0, 0 // patterns with more samples or partitions than they get specs for; the most
	for _, p := range d.Patterns {
		if p.Why != "" {
			continue // not generated: uncovered, as the catalog says
		}
		label := p.Index
		s.Code("var _ = Describe(%q, Label(%q, %q), func() {", string(p.ID)+" "+p.Name, p.ID, label)
		var of int
		switch {
		case p.Entity != nil:
			of = d.specGet(s, p, all)
		case p.Group != nil:
			of = d.specQuery(s, p, all)
		case p.MCP != nil:
			mcp.Spec(s, mcpPattern(p), faultedRead)
		}
		if of > MaxSpecsPerPattern {
			capped, most = capped+1, max(most, of)
		}
		s.Code("})")
	}
	note := fmt.Sprintf("the specs of %s take the first %d samples (a get) or partitions (a query) of up to %s, to keep make verify quick",
		figure.Count(capped, "pattern", "patterns"), MaxSpecsPerPattern, figure.Thousands(most))
	if capped > 0 && !slices.Contains(d.Notes, note) {
		d.Notes = append(d.Notes, note)
	}
}

// faultedRead is what a generated read spec says where hostile verify
// handed back a fault: a read stores nothing, so there is no state to
// check beside it (ddbtest.Env.Faulted).
const faultedRead = "hostile verify: a fault handed back as an error, never as an answer"

// specGet expects each sample of the pattern's entity back by its key, the
// first MaxSpecsPerPattern of them, and ErrNotFound for a key no sample
// has; it returns how many samples the entity has.
func (d design) specGet(s *scaffold.Source, p *shape.Pattern, all []shape.Sample) (samples int) {
	e := p.Entity
	vars := d.vars(p)
	var args []string
	for _, v := range vars {
		args = append(args, "want."+v.Go)
	}
	s.Code("DescribeTable(%q,", "returns each sample "+e.Facet+" by its key")
	s.Code("func(ctx SpecContext, want %s.%s) {", d.Name, e.Go)
	s.Code("env.Answers(table.%s(ctx, %s))(want)", p.Go, strings.Join(args, ", "))
	s.Code("},")
	schema, entries, of := d.Schema.ItemSchema(), 0, 0
	for _, x := range all {
		if x.Entity != e {
			continue
		}
		if of++; entries < MaxSpecsPerPattern {
			entries++
			s.Code("Entry(%q, %s.Samples[%d]),", schema.KeyText(x.Item), d.Name, x.N)
		}
	}
	s.Code(")")
	if len(vars) == 0 {
		return of // a key of constants only: there is no other key to ask for
	}
	var missing []string
	for _, v := range vars {
		missing = append(missing, d.absent(v, e.Key(d.Schema.PK), e.Key(d.Schema.SK)))
	}
	s.Code("It(\"reports designs.ErrNotFound for a key no sample has\", func(ctx SpecContext) {")
	s.Code("_, err := table.%s(ctx, %s)", p.Go, strings.Join(missing, ", "))
	s.Code("env.Refuses(err, designs.ErrNotFound)\n})")
	return of
}

// absent is a Go literal of a value for v that no sample's key has: a
// whole number past every sample's when v is a whole number key (a
// DynamoDB number key refuses other text), else text no sample uses.
func (d design) absent(v *shape.Var, keys ...*shape.KeyUse) string {
	for _, k := range keys {
		if k == nil || k.Type != "N" || len(k.Segs) != 1 || k.Segs[0].Var != v {
			continue
		}
		// Exact arithmetic: number keys often are nanosecond timestamps,
		// past what a float64 counts in ones.
		top := new(big.Int)
		for _, e := range d.Entities {
			for _, it := range e.Samples {
				if n, ok := it[k.Attr].(*types.AttributeValueMemberN); ok {
					if r, ok := new(big.Rat).SetString(n.Value); ok {
						if f := new(big.Int).Quo(r.Num(), r.Denom()); f.Cmp(top) > 0 { // floor for positive values
							top = f
						}
					}
				}
			}
		}
		return strconv.Quote(top.Add(top, big.NewInt(1)).String())
	}
	return `"no-such-key"`
}

// specQuery expects, for each partition key value the samples hold in the
// pattern's layout, exactly the samples with that value (and the index's
// sort key) in sort key order, as the index projects them, for the first
// MaxSpecsPerPattern values; it returns how many values the samples hold.
func (d design) specQuery(s *scaffold.Source, p *shape.Pattern, all []shape.Sample) (partitions int) {
	schema := d.Schema.ItemSchema()
	sks := []string{d.Schema.SK}
	if ix, ok := schema.Index(p.Index); ok {
		sks = ix.SortAttrs()
	}
	sks = slices.DeleteFunc(sks, func(a string) bool { return a == "" })
	keys := partition(p)
	var pks []string
	for _, k := range keys {
		pks = append(pks, k.Attr)
	}
	// One pass groups the samples by partition value, numbers by value (7
	// and 7.0 are one partition): a model of many samples stays linear.
	partitionOf := func(item map[string]types.AttributeValue) (string, bool) {
		var id strings.Builder
		for _, a := range pks {
			one, ok := ddbitem.Schema{PK: a}.KeyID(item)
			if !ok {
				return "", false
			}
			id.WriteString(one + "\x00")
		}
		return id.String(), true
	}
	var values []string // the group's partition values, by their id, in sample order
	value := map[string]map[string]types.AttributeValue{}
	members := map[string][]shape.Sample{} // the samples in each partition of the pattern's index
	for _, x := range all {
		id, ok := partitionOf(x.Item)
		if !ok {
			continue
		}
		if _, seen := value[id]; !seen && slices.Contains(p.Group, x.Entity) && !slices.ContainsFunc(keys, func(k *shape.KeyUse) bool { return x.Entity.Key(k.Attr) == nil }) {
			values = append(values, id)
			value[id] = x.Item
		}
		if !slices.ContainsFunc(sks, func(a string) bool { return x.Item[a] == nil }) {
			members[id] = append(members[id], x)
		}
	}
	of := len(values)
	values = values[:min(of, MaxSpecsPerPattern)]
	for _, id := range values {
		in := members[id]
		v := ddbitem.PartitionText(pks, value[id])
		ties := false
		slices.SortStableFunc(in, func(a, b shape.Sample) int {
			for _, sk := range sks {
				if c := ddbitem.CompareKey(a.Item[sk], b.Item[sk]); c != 0 {
					return c
				}
			}
			if len(sks) > 0 {
				ties = true
			}
			return 0
		})
		if len(sks) == 0 && len(in) > 1 {
			ties = true
		}
		var args strings.Builder
		for _, x := range shape.KeyVars(keys...) {
			args.WriteString(strconv.Quote(d.partValues(keys, value[id])[x]) + ", ")
		}
		order := "in sort key order"
		match := "Equal"
		if ties {
			order, match = "(equal sort keys: in any order)", "ConsistOf"
		}
		items := "items"
		if len(in) == 1 {
			items = "item"
		}
		s.Code("It(%q, func(ctx SpecContext) {", fmt.Sprintf("returns the %d sample %s of partition %s %s", len(in), items, v, order))
		s.Code("page, next, err := table.%s(ctx, %s\"\")", p.Go, args.String())
		s.Code("if env.Faulted(err) {\nreturn // %s\n}", faultedRead)
		s.Code("Expect(err).NotTo(HaveOccurred())\nExpect(next).To(BeEmpty())")
		s.Code("Expect(page).To(%s([]%s.Entity{", match, d.Name)
		for _, x := range in {
			entry := x.Item // the table's own query returns whole items
			if e := schema.EntryOf(p.Index, x.Item); e != nil {
				entry = e // as the index projects it
			}
			s.Code("%s,", d.literal(x.Entity, entry, d.Name+"."))
		}
		s.Code("}))\n})")
	}
	if len(shape.KeyVars(keys...)) == 0 {
		return of // a partition key of constants only: there is no other partition
	}
	var missing []string
	for _, v := range shape.KeyVars(keys...) {
		missing = append(missing, d.absent(v, keys...)+", ")
	}
	s.Code("It(\"returns an empty last page for a partition no sample has\", func(ctx SpecContext) {")
	s.Code("page, next, err := table.%s(ctx, %s\"\")", p.Go, strings.Join(missing, ""))
	s.Code("if env.Faulted(err) {\nreturn // %s\n}", faultedRead)
	s.Code("Expect(err).NotTo(HaveOccurred())\nExpect(next).To(BeEmpty())\nExpect(page).To(BeEmpty())\n})")
	return of
}

// partValues are the values of the variables of layouts keys (a
// partition key's attributes) that make the partition key item holds.
func (d design) partValues(keys []*shape.KeyUse, item map[string]types.AttributeValue) map[*shape.Var]string {
	vals := map[*shape.Var]string{}
	for _, k := range keys {
		maps.Copy(vals, d.KeyValues(k, ddbitem.KeyText(item[k.Attr])))
	}
	return vals
}
