package shape

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
)

// goodID is a pattern ID the catalog and a spec label can carry as it is.
var goodID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// maxParams bounds a generated function's arguments: past it, the
// function sends the model's request as written.
const maxParams = 12

// modelPatterns adds the MCP model's access patterns to the catalog,
// under their own IDs and names: each a generated function and spec when
// its command translates, else an uncovered row saying why.
func (d *Design) modelPatterns(aps []mcp.AccessPattern) {
	// A pattern without a command that is one of the import's own (an
	// export's) is made again from the keys, not listed twice.
	aps = slices.DeleteFunc(slices.Clone(aps), func(ap mcp.AccessPattern) bool {
		return ap.Implementation == "" && slices.ContainsFunc(d.Patterns, func(p *Pattern) bool {
			return string(p.ID) == ap.Pattern && p.Name == ap.Description && string(p.Op) == ap.Operation && p.Index == cmp.Or(ap.Index, designs.MainTable)
		})
	})
	// The import's own patterns leave the model's IDs to the model's.
	n := 0
	for _, p := range d.Patterns {
		n++
		for slices.ContainsFunc(aps, func(ap mcp.AccessPattern) bool { return ap.Pattern == fmt.Sprintf("AP-%02d", n) }) {
			n++
		}
		p.ID = designs.PatternID(fmt.Sprintf("AP-%02d", n))
	}
	taken := map[string]bool{}
	for _, p := range d.Patterns {
		taken[p.Go] = true
		taken[string(p.ID)] = true
	}
	for i, ap := range aps {
		base := ap.Pattern
		if !goodID.MatchString(base) {
			base = fmt.Sprintf("MCP-%02d", i+1)
		}
		id := base
		for n := 2; taken[id]; n++ { // a range split by operation repeats its ID
			id = fmt.Sprintf("%s.%d", base, n)
		}
		taken[id] = true
		p := &Pattern{ID: designs.PatternID(id), Name: cmp.Or(ap.Description, "pattern "+ap.Pattern), Index: cmp.Or(ap.Index, designs.MainTable),
			Op: designs.Operation(ap.Operation), Go: unique("AP"+GoName("P" + id)[1:]+shortName(ap.Description), taken)}
		p.Doc = "the model's pattern " + strconv.Quote(ap.Pattern) + ": " + ap.Description
		if ap.Rate != nil {
			p.Rate = *ap.Rate
			p.Doc += fmt.Sprintf("; declared at %s requests/s at peak", strconv.FormatFloat(p.Rate, 'g', -1, 64))
		}
		if ap.ItemBytes != nil {
			p.ItemBytes = int(*ap.ItemBytes)
			p.Doc += fmt.Sprintf(", items of %d bytes", p.ItemBytes)
		}
		p.Command = ap.Implementation
		why := d.translate(p, ap)
		if why != nil {
			p.Why = strings.TrimPrefix(why.Error(), mcp.ErrUntranslatable.Error()+": ")
			if !slices.Contains(mcp.OpsList(), p.Op) {
				p.Op = "none"
			}
			if _, ok := d.Schema.ItemSchema().Index(p.Index); !ok {
				p.Index = designs.MainTable
			}
			p.Doc += " (not generated: " + p.Why + ")"
			note := fmt.Sprintf("access pattern %s (%s) not generated: %s; it stays in the catalog uncovered, so verify says so: write it by hand", ap.Pattern, ap.Description, p.Why)
			if p.Rate > 0 {
				note += fmt.Sprintf("; its declared %s requests/s are left out of the default scenario", RateText(p.Rate))
			}
			d.Notes = append(d.Notes, note)
		}
		d.Patterns = append(d.Patterns, p)
	}
}

// translate reads the pattern's command and what it does to the samples.
func (d *Design) translate(p *Pattern, ap mcp.AccessPattern) error {
	switch {
	case ap.Reason != "" && ap.Implementation == "":
		return mcp.Untranslatable("the model says: %s", ap.Reason)
	case ap.Implementation == "":
		return mcp.Untranslatable("the model gives no implementation")
	}
	c, err := mcp.ParseCommand(ap.Implementation, d.Table.TableName)
	if err != nil {
		return err
	}
	if ap.Operation != "" && designs.Operation(ap.Operation) != c.Op && !(ap.Operation == "TransactWrite" && c.Op == designs.TransactWriteItems) {
		return mcp.Untranslatable("its operation %s and its command's %s differ", ap.Operation, c.Op)
	}
	if ap.Index != "" && ap.Index != c.Index {
		return mcp.Untranslatable("it names index %q and its command %q", ap.Index, c.Index)
	}
	r, err := d.expect(c)
	if err != nil {
		return err
	}
	p.Op, p.Index, p.MCP, p.Result = c.Op, cmp.Or(c.Index, designs.MainTable), c, r
	p.Params = mcpParams(c)
	return nil
}

// shortName is the first words of a description as a Go name.
func shortName(desc string) string {
	words := strings.Fields(desc)
	return GoName(strings.Join(words[:min(len(words), 4)], " "))
}

// mcpParams are a single-item call's values as typed arguments: its key's,
// its item's and its expressions' values; none for a batch, a
// transaction, or past maxParams.
func mcpParams(c *mcp.Call) []mcp.Param {
	if len(c.Actions) > 1 {
		return nil
	}
	var out []mcp.Param
	taken := map[string]bool{}
	add := func(name string, v types.AttributeValue) {
		t := "types.AttributeValue"
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			t = "string"
		case *types.AttributeValueMemberBOOL:
			t = "bool"
		case *types.AttributeValueMemberN:
			if f, err := strconv.ParseFloat(v.Value, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v.Value {
				t = "float64"
			}
		}
		p := (&Var{Go: GoName(name)}).Param()
		out = append(out, mcp.Param{Go: unique(p, taken), Type: t, AV: v})
	}
	if len(c.Actions) == 1 {
		a := c.Actions[0]
		for _, k := range slices.Sorted(maps.Keys(a.Key)) {
			add(k, a.Key[k])
		}
		for _, k := range slices.Sorted(maps.Keys(a.Item)) {
			add(k, a.Item[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Values)) {
		add(strings.TrimPrefix(k, ":"), c.Values[k])
	}
	if len(out) > maxParams {
		return nil
	}
	return out
}

// stored is a sample item as its entity's generated Item writes it: with
// its type attribute, without the zero values omitempty leaves out, a
// number field as the float64 it holds.
func (d *Design) stored(e *Entity, it map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := maps.Clone(it)
	out[d.Schema.TypeAttribute] = &types.AttributeValueMemberS{Value: e.TypeValue}
	for _, f := range e.Fields {
		v, ok := it[f.Attr]
		if !ok {
			continue
		}
		if _, keep := FieldLiteral(f.Type, v); !keep {
			delete(out, f.Attr)
		} else if n, isN := v.(*types.AttributeValueMemberN); isN && f.Type == "N" {
			x, _ := strconv.ParseFloat(n.Value, 64)
			out[f.Attr] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(x, 'f', -1, 64)}
		}
	}
	return out
}

// expect runs call c on the stored samples, as DynamoDB would.
func (d *Design) expect(c *mcp.Call) (mcp.Result, error) {
	var items []ddbitem.Item
	for _, x := range d.Samples() {
		items = append(items, d.stored(x.Entity, x.Item))
	}
	return mcp.Expect(c, d.Schema.ItemSchema(), items)
}

// RateText is a declared rate as the notes and the README write it.
func RateText(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }
