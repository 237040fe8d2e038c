package shape

import (
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// CopyNumbers gives each key part name of the design its own copies: the
// n-th copy of part i of k names is copy n*k+i of its sample value. A part
// of one name (UserID in a user and in its orders) keeps one numbering, so
// related items stay related; parts of different names whose samples
// hold one value by chance (a user ID and an order ID both "1") differ in
// every copy, and a model exported from the copies keeps them apart.
type CopyNumbers struct {
	index map[string]int
	k     int
}

// CopyNumbers numbers the design's key part names for its copies.
func (d *Design) CopyNumbers() CopyNumbers {
	var names []string
	for _, e := range d.Entities {
		for _, v := range e.Vars {
			names = append(names, v.Go)
		}
	}
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	c := CopyNumbers{index: map[string]int{}, k: len(names)}
	for i, n := range names {
		c.index[n] = i
	}
	return c
}

// of is the copy number of part v in the n-th copy.
func (c CopyNumbers) of(v *Var, n int) int { return n*c.k + c.index[v.Go] }

// Expr is of as the generated Go expression of n.
func (c CopyNumbers) Expr(v *Var) string {
	if c.k <= 1 {
		return "n"
	}
	return fmt.Sprintf("n*%d+%d", c.k, c.index[v.Go])
}

// Grow is the item of sample item it of entity e in the n-th copy, as
// the generated Grown and Item make it: each key part passed through vary
// with its copy number, the keys built again from the layouts.
func (d *Design) Grow(e *Entity, it map[string]types.AttributeValue, n int, vary func(part string, n int) string) map[string]types.AttributeValue {
	copies := d.CopyNumbers()
	vals := map[*Var]string{}
	for _, k := range e.Keys {
		v, ok := it[k.Attr]
		if !ok {
			continue
		}
		maps.Copy(vals, d.KeyValues(k, ddbitem.KeyText(v)))
	}
	out := make(map[string]types.AttributeValue, len(it))
	for a, v := range it {
		out[a] = v
	}
	out[d.Schema.TypeAttribute] = &types.AttributeValueMemberS{Value: e.TypeValue}
	for v, x := range vals {
		vals[v] = vary(x, copies.of(v, n))
		if v.Field != nil {
			out[v.Field.Attr] = &types.AttributeValueMemberS{Value: vals[v]}
		}
	}
	for _, k := range e.Keys {
		if _, ok := it[k.Attr]; !ok {
			continue
		}
		text := k.shape(d.Sep, func(v *Var) string { return vals[v] })
		if k.Type == "N" {
			out[k.Attr] = &types.AttributeValueMemberN{Value: text}
		} else {
			out[k.Attr] = &types.AttributeValueMemberS{Value: text}
		}
	}
	return out
}
