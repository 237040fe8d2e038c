package workbench

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

func (d design) genEntities(s *scaffold.Source) {
	s.Code("package %s", d.Name)
	imports := []string{`"fmt"`}
	for _, e := range d.Entities {
		for _, f := range e.Fields {
			if f.Type == "BS" && !slices.Contains(imports, `"bytes"`) {
				imports = append(imports, `"bytes"`)
			}
			if (f.Type == "SS" || f.Type == "NS" || f.Type == "BS") && !slices.Contains(imports, `"slices"`) {
				imports = append(imports, `"slices"`)
			}
		}
	}
	s.Code(`import (
	` + strings.Join(imports, "\n") + `

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)`)
	s.Code(`// Entity is an item of any type of the table, as its Go value.
type Entity interface {
// Item is the item as DynamoDB stores it: its attributes, keys and type.
Item() (map[string]types.AttributeValue, error)
}
// decoders read an item into its entity: by its type attribute value,
// or, for an item without one (an index that does not project it), the
// first in this order whose key layouts its keys fit: the layouts with
// the most constant parts in the table's keys first, so that a looser one
// takes only what none of them fits.
var decoders = []designs.TypeDecoder[Entity]{`)
	for _, e := range d.decodeOrder() {
		s.Code("{Type: %q, Decode: decodeAs%s},", e.TypeValue, e.Go)
	}
	s.Code(`}
func decode(item map[string]types.AttributeValue) (Entity, error) {
return designs.Decode(item, typeAttribute, decoders)
}`)
	for _, e := range d.Entities {
		d.genEntity(s, e)
	}
}

func (d design) genEntity(s *scaffold.Source, e *shape.Entity) {
	s.Code("// %s is an item of facet %q of the model.", e.Go, e.Facet)
	s.Code("type %s struct {", e.Go)
	for _, v := range e.Vars {
		if v.Field == nil {
			s.Code("%s string `dynamodbav:\"-\"` // a part of its keys", v.Go)
		}
	}
	for _, f := range flags(e) {
		s.Code("%s bool `dynamodbav:\"-\"` // it is in a sparse index", f)
	}
	for _, f := range e.Fields {
		s.Code("%s %s %s", f.Go, goType(f.Type), tag("dynamodbav:"+strconv.Quote(f.Attr+tagOpts(f.Type))))
	}
	s.Code("}")
	s.Code("// Key builders: every key of a %s is made here and nowhere else.", e.Go)
	for _, k := range e.Keys {
		vars := shape.KeyVars(k)
		var params []string
		for _, v := range vars {
			params = append(params, v.Param())
		}
		where := "the table's"
		if k.Index != "" {
			where = "index " + strconv.Quote(k.Index) + "'s"
		}
		s.Code("// %s builds %s %q: %q.", builder(e, k), where, k.Attr, k.Layout(d.Sep))
		ps := ""
		if len(params) > 0 {
			ps = strings.Join(params, ", ") + " string"
		}
		s.Code("func %s(%s) string { return %s }", builder(e, k), ps, d.expr(k, (*shape.Var).Param))
	}
	s.Code("// Item is the %s as DynamoDB stores it.", e.Go)
	s.Code("func (v %s) Item() (map[string]types.AttributeValue, error) {", e.Go)
	s.Code("av, err := attributevalue.MarshalMap(v)\nif err != nil {\nreturn nil, fmt.Errorf(\"%%s: %%w\", %q, err)\n}", e.Facet)
	for _, k := range e.Keys {
		var args []string
		for _, v := range shape.KeyVars(k) {
			args = append(args, "v."+v.Go)
		}
		set := fmt.Sprintf("av[%q] = %s", k.Attr, member(k.Type, builder(e, k)+"("+strings.Join(args, ", ")+")"))
		if k.Flag != "" {
			set = fmt.Sprintf("if v.%s {\n%s\n}", k.Flag, set)
		}
		s.Code("%s", set)
	}
	s.Code("av[typeAttribute] = &types.AttributeValueMemberS{Value: %q}", e.TypeValue)
	s.Code("return av, nil\n}")
	s.Code("// decodeAs%s reads a %s; keys the item lacks (an index that does not", e.Go, e.Go)
	s.Code("// project them) leave their parts as the attributes have them.")
	s.Code("func decodeAs%s(av map[string]types.AttributeValue) (Entity, bool, error) {", e.Go)
	s.Code("var v %s\nif err := attributevalue.UnmarshalMap(av, &v); err != nil {\nreturn nil, false, fmt.Errorf(\"%%s: %%w\", %q, err)\n}", e.Go, e.Facet)
	for _, f := range e.Fields {
		switch f.Type {
		case "SS", "NS":
			s.Code("slices.Sort(v.%s) // a set has no order: the Go value keeps it sorted", f.Go)
		case "BS":
			s.Code("slices.SortFunc(v.%s, bytes.Compare) // a set has no order: the Go value keeps it sorted", f.Go)
		}
	}
	for _, k := range e.Keys {
		s.Code("if text, ok := designs.KeyText(av, %q); ok {", k.Attr)
		if k.Flag != "" {
			s.Code("v.%s = true", k.Flag)
		}
		switch {
		case len(k.Segs) == 1 && k.Segs[0].Var != nil:
			s.Code("v.%s = text", k.Segs[0].Var.Go)
		case len(k.Segs) == 1: // one constant: nothing to split
			s.Code("if text != %q {\nreturn nil, false, nil\n}", k.Segs[0].Const)
		default:
			s.Code("p := designs.SplitKey(text, %q, %d)", d.Sep, len(k.Segs))
			var checks []string
			checks = append(checks, fmt.Sprintf("len(p) != %d", len(k.Segs)))
			for i, seg := range k.Segs {
				if seg.Var == nil {
					checks = append(checks, fmt.Sprintf("p[%d] != %q", i, seg.Const))
				}
			}
			s.Code("if %s {\nreturn nil, false, nil\n}", strings.Join(checks, " || "))
			for i, seg := range k.Segs {
				if seg.Var != nil {
					s.Code("v.%s = p[%d]", seg.Var.Go, i)
				}
			}
		}
		s.Code("}")
	}
	s.Code("return v, true, nil\n}")
}

// flags are the entity's sparse index fields, once each.
func flags(e *shape.Entity) []string {
	var out []string
	for _, k := range e.Keys {
		if k.Flag != "" && !slices.Contains(out, k.Flag) {
			out = append(out, k.Flag)
		}
	}
	return out
}

func goType(t string) string {
	switch t {
	case "S":
		return "string"
	case "N":
		return "float64"
	case "BOOL":
		return "bool"
	case "B":
		return "[]byte"
	case "SS":
		return "[]string"
	case "NS":
		return "[]float64"
	case "BS":
		return "[][]byte"
	case "M":
		return "map[string]any"
	case "L":
		return "[]any"
	}
	return "any"
}

func tagOpts(t string) string {
	switch t {
	case "SS":
		return ",omitempty,stringset"
	case "NS":
		return ",omitempty,numberset"
	case "BS":
		return ",omitempty,binaryset"
	}
	return ",omitempty"
}

// tag is a struct tag's literal: raw when it can be, as the SDK's docs
// write them, else quoted (an attribute name with a backquote).
func tag(s string) string {
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// decodeOrder is the entities by how many constant parts their layouts
// have, most first: in the table's own keys, which every index entry
// carries, then in all their keys; ties in the model's order.
func (d design) decodeOrder() []*shape.Entity {
	constants := func(e *shape.Entity, tableOnly bool) int {
		n := 0
		for _, k := range e.Keys {
			if tableOnly && k.Index != "" {
				continue
			}
			for _, s := range k.Segs {
				if s.Var == nil {
					n++
				}
			}
		}
		return n
	}
	return slices.SortedStableFunc(slices.Values(d.Entities), func(a, b *shape.Entity) int {
		return cmp.Or(cmp.Compare(constants(b, true), constants(a, true)), cmp.Compare(constants(b, false), constants(a, false)))
	})
}
