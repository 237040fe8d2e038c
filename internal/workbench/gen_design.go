package workbench

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

func (d *Design) genSchema(s *src, model string) {
	s.p("// Package %s is the %q table of the NoSQL Workbench model %q, imported", d.Name, d.Table.TableName, model)
	s.p("// by ddbharness import-model: its keys and indexes, one Go type per facet")
	s.p("// with key builders read from the sample keys, and the patterns the sample")
	s.p("// data proves. README.md beside this file lists them; change the code")
	s.p("// freely, the model is not read again.")
	s.p("package %s", d.Name)
	needsTypes := len(d.Schema.Types) > 0
	for _, ix := range d.Schema.ItemSchema().Indexes {
		needsTypes = needsTypes || ix.Projection == types.ProjectionTypeKeysOnly || ix.Projection == types.ProjectionTypeInclude
	}
	if needsTypes {
		s.p("import (\n\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n")
	} else {
		s.p("import (")
	}
	s.p("\"github.com/ddbharness/ddbharness/designs\"\n)")
	s.p("// Schema is the table as the model declares it.")
	s.p("var Schema = designs.Schema{")
	s.p("PK: %q, SK: %q,", d.Schema.PK, d.Schema.SK)
	if len(d.Schema.Types) > 0 {
		s.p("Types: map[string]types.ScalarAttributeType{")
		for _, n := range sortedKeys(d.Schema.Types) {
			s.p("%q: %q,", n, string(d.Schema.Types[n]))
		}
		s.p("},")
	}
	for _, list := range []struct {
		name string
		ixs  []designs.Index
	}{{"GSIs", d.Schema.GSIs}, {"LSIs", d.Schema.LSIs}} {
		if len(list.ixs) == 0 {
			continue
		}
		s.p("%s: []designs.Index{", list.name)
		for _, ix := range list.ixs {
			fields := []string{"Name: " + indexConst(ix.Name)}
			if ix.PK != "" {
				fields = append(fields, "PK: "+strconv.Quote(ix.PK))
			}
			if ix.SK != "" {
				fields = append(fields, "SK: "+strconv.Quote(ix.SK))
			}
			switch ix.Projection {
			case types.ProjectionTypeKeysOnly:
				fields = append(fields, "Projection: types.ProjectionTypeKeysOnly")
			case types.ProjectionTypeInclude:
				fields = append(fields, "Projection: types.ProjectionTypeInclude", "NonKey: "+quoteList(ix.NonKey))
			}
			s.p("{%s},", strings.Join(fields, ", "))
		}
		s.p("},")
	}
	if d.Schema.Billing != "" {
		s.p("Billing: %q, RCU: %d, WCU: %d,", string(d.Schema.Billing), d.Schema.RCU, d.Schema.WCU)
	}
	s.p("TypeAttribute: typeAttribute,")
	s.p("}")
	if n := len(d.Schema.GSIs) + len(d.Schema.LSIs); n > 0 {
		s.p("// The table's indexes.")
		s.p("const (")
		for _, ix := range d.Schema.ItemSchema().Indexes {
			s.p("%s = %q", indexConst(ix.Name), ix.Name)
		}
		s.p(")")
	}
	s.p("// typeAttribute holds each item's entity type, so a read of a mixed")
	s.p("// partition can tell its items apart.")
	s.p("const typeAttribute = %q", d.Schema.TypeAttribute)
	s.p("// PageSize is how many items a query pattern returns at most per call.")
	s.p("const PageSize = 100")
	s.p("// Table is a handle on one table of this design: specs, seeds and bench")
	s.p("// each bring their own client.")
	s.p("type Table struct {\nDB designs.DB\nName string\n}")
}

func (d *Design) genEntities(s *src) {
	s.p("package %s", d.Name)
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
	s.p(`import (
	` + strings.Join(imports, "\n") + `

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)`)
	s.p(`// Entity is an item of any type of the table, as its Go value.
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
		s.p("{Type: %q, Decode: decodeAs%s},", e.TypeValue, e.Go)
	}
	s.p(`}
func decode(item map[string]types.AttributeValue) (Entity, error) {
return designs.Decode(item, typeAttribute, decoders)
}`)
	for _, e := range d.Entities {
		d.genEntity(s, e)
	}
}

func (d *Design) genEntity(s *src, e *Entity) {
	s.p("// %s is an item of facet %q of the model.", e.Go, e.Facet)
	s.p("type %s struct {", e.Go)
	for _, v := range e.Vars {
		if v.Field == nil {
			s.p("%s string `dynamodbav:\"-\"` // a part of its keys", v.Go)
		}
	}
	for _, f := range e.flags() {
		s.p("%s bool `dynamodbav:\"-\"` // it is in a sparse index", f)
	}
	for _, f := range e.Fields {
		s.p("%s %s %s", f.Go, goType(f.Type), tag("dynamodbav:"+strconv.Quote(f.Attr+tagOpts(f.Type))))
	}
	s.p("}")
	s.p("// Key builders: every key of a %s is made here and nowhere else.", e.Go)
	for _, k := range e.Keys {
		vars := keyVars(k)
		var params []string
		for _, v := range vars {
			params = append(params, param(v))
		}
		where := "the table's"
		if k.Index != "" {
			where = "index " + strconv.Quote(k.Index) + "'s"
		}
		s.p("// %s builds %s %q: %q.", e.builder(k), where, k.Attr, k.Layout(d.Sep))
		ps := ""
		if len(params) > 0 {
			ps = strings.Join(params, ", ") + " string"
		}
		s.p("func %s(%s) string { return %s }", e.builder(k), ps, d.expr(k, param))
	}
	s.p("// Item is the %s as DynamoDB stores it.", e.Go)
	s.p("func (v %s) Item() (map[string]types.AttributeValue, error) {", e.Go)
	s.p("av, err := attributevalue.MarshalMap(v)\nif err != nil {\nreturn nil, fmt.Errorf(\"%%s: %%w\", %q, err)\n}", e.Facet)
	for _, k := range e.Keys {
		var args []string
		for _, v := range keyVars(k) {
			args = append(args, "v."+v.Go)
		}
		set := fmt.Sprintf("av[%q] = %s", k.Attr, member(k.Type, e.builder(k)+"("+strings.Join(args, ", ")+")"))
		if k.Flag != "" {
			set = fmt.Sprintf("if v.%s {\n%s\n}", k.Flag, set)
		}
		s.p("%s", set)
	}
	s.p("av[typeAttribute] = &types.AttributeValueMemberS{Value: %q}", e.TypeValue)
	s.p("return av, nil\n}")
	s.p("// decodeAs%s reads a %s; keys the item lacks (an index that does not", e.Go, e.Go)
	s.p("// project them) leave their parts as the attributes have them.")
	s.p("func decodeAs%s(av map[string]types.AttributeValue) (Entity, bool, error) {", e.Go)
	s.p("var v %s\nif err := attributevalue.UnmarshalMap(av, &v); err != nil {\nreturn nil, false, fmt.Errorf(\"%%s: %%w\", %q, err)\n}", e.Go, e.Facet)
	for _, f := range e.Fields {
		switch f.Type {
		case "SS", "NS":
			s.p("slices.Sort(v.%s) // a set has no order: the Go value keeps it sorted", f.Go)
		case "BS":
			s.p("slices.SortFunc(v.%s, bytes.Compare) // a set has no order: the Go value keeps it sorted", f.Go)
		}
	}
	for _, k := range e.Keys {
		s.p("if text, ok := designs.KeyText(av, %q); ok {", k.Attr)
		if k.Flag != "" {
			s.p("v.%s = true", k.Flag)
		}
		switch {
		case len(k.Segs) == 1 && k.Segs[0].Var != nil:
			s.p("v.%s = text", k.Segs[0].Var.Go)
		case len(k.Segs) == 1: // one constant: nothing to split
			s.p("if text != %q {\nreturn nil, false, nil\n}", k.Segs[0].Const)
		default:
			s.p("p := designs.SplitKey(text, %q, %d)", d.Sep, len(k.Segs))
			var checks []string
			checks = append(checks, fmt.Sprintf("len(p) != %d", len(k.Segs)))
			for i, seg := range k.Segs {
				if seg.Var == nil {
					checks = append(checks, fmt.Sprintf("p[%d] != %q", i, seg.Const))
				}
			}
			s.p("if %s {\nreturn nil, false, nil\n}", strings.Join(checks, " || "))
			for i, seg := range k.Segs {
				if seg.Var != nil {
					s.p("v.%s = p[%d]", seg.Var.Go, i)
				}
			}
		}
		s.p("}")
	}
	s.p("return v, true, nil\n}")
}

// flags are the entity's sparse index fields, once each.
func (e *Entity) flags() []string {
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

func quoteList(xs []string) string { return "[]string{" + join(xs, strconv.Quote) + "}" }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// decodeOrder is the entities by how many constant parts their layouts
// have, most first: in the table's own keys, which every index entry
// carries, then in all their keys; ties in the model's order.
func (d *Design) decodeOrder() []*Entity {
	constants := func(e *Entity, tableOnly bool) int {
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
	return slices.SortedStableFunc(slices.Values(d.Entities), func(a, b *Entity) int {
		return cmp.Or(cmp.Compare(constants(b, true), constants(a, true)), cmp.Compare(constants(b, false), constants(a, false)))
	})
}
