package shape

import (
	"slices"
	"strings"
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

// IndexConst is the Go constant of index name in the generated package.
func IndexConst(name string) string { return "Index" + GoName(name) }
