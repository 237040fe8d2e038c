package shape

import (
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// KeyVars lists the distinct variables of the given layouts, in order.
func KeyVars(ks ...*KeyUse) []*Var {
	var out []*Var
	for _, k := range ks {
		if k == nil {
			continue
		}
		for _, s := range k.Segs {
			if s.Var != nil && !slices.Contains(out, s.Var) {
				out = append(out, s.Var)
			}
		}
	}
	return out
}

// Layout writes the key's layout as people read it, its parts joined by
// sep: "USER#<UserID>".
func (k *KeyUse) Layout(sep string) string {
	return k.shape(sep, func(v *Var) string { return "<" + v.Go + ">" })
}

// shape is the layout with each variable segment written by v.
func (k *KeyUse) shape(sep string, v func(*Var) string) string {
	var parts []string
	for _, s := range k.Segs {
		if s.Var != nil {
			parts = append(parts, v(s.Var))
		} else {
			parts = append(parts, s.Const)
		}
	}
	return strings.Join(parts, sep)
}

// KeyValues are the values of the variables of k's layout in text, a
// value of k's attribute: text split at the design's separator into the
// layout's parts, the last part keeping any separator left over.
func (d *Design) KeyValues(k *KeyUse, text string) map[*Var]string {
	vals := map[*Var]string{}
	parts := designs.SplitKey(text, d.Sep, len(k.Segs))
	for i, s := range k.Segs {
		if s.Var != nil && i < len(parts) {
			vals[s.Var] = parts[i]
		}
	}
	return vals
}

// IndexConst is the Go constant of index name in the generated package.
func IndexConst(name string) string { return "Index" + GoName(name) }
