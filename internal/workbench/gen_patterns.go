package workbench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// genPatterns writes the pattern functions, one per pattern.
func (d design) genPatterns(s *scaffold.Source) {
	s.Code("package %s", d.Name)
	sdk := []string{`"github.com/aws/aws-sdk-go-v2/aws"`, `"github.com/aws/aws-sdk-go-v2/service/dynamodb"`, `"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"`}
	if slices.ContainsFunc(d.Patterns, func(p *shape.Pattern) bool { return p.Op == designs.Query && p.MCP == nil }) {
		sdk = append(sdk, `"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"`)
	}
	std := `"context"` + "\n" + `"fmt"`
	if slices.ContainsFunc(d.Patterns, func(p *shape.Pattern) bool {
		return slices.ContainsFunc(p.Params, func(a mcp.Param) bool { return a.Type == "float64" })
	}) {
		std += "\n" + `"strconv"`
	}
	s.Code("import (\n%s\n\n%s\n\n\"github.com/ddbharness/ddbharness/designs\"\n)", std, strings.Join(sdk, "\n"))
	s.Code("var _ = designs.ErrNotFound")
	for _, p := range d.Patterns {
		switch {
		case p.Entity != nil:
			d.genGet(s, p)
		case p.Group != nil:
			d.genQuery(s, p)
		case p.MCP != nil:
			mcp.Func(s, mcpPattern(p), shape.IndexConst)
		}
	}
}

func (d design) genGet(s *scaffold.Source, p *shape.Pattern) {
	e := p.Entity
	pk, sk := e.Key(d.Schema.PK), e.Key(d.Schema.SK)
	vars := d.vars(p)
	var params []string
	for _, v := range vars {
		params = append(params, v.Param())
	}
	if len(params) > 0 {
		params[len(params)-1] += " string"
	}
	s.Code("// %s is %s (main table, GetItem): %q. An unknown key is", p.Go, p.ID, p.Doc)
	s.Code("// designs.ErrNotFound.")
	s.Code("func (t Table) %s(ctx context.Context, %s) (%s, error) {", p.Go, strings.Join(params, ", "), e.Go)
	s.Code("key := map[string]types.AttributeValue{")
	for _, k := range []*shape.KeyUse{pk, sk} {
		if k == nil {
			continue
		}
		var a []string
		for _, v := range shape.KeyVars(k) {
			a = append(a, v.Param())
		}
		s.Code("%q: %s,", k.Attr, member(k.Type, builder(e, k)+"("+strings.Join(a, ", ")+")"))
	}
	s.Code("}")
	s.Code(`out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name), Key: key})
	if err != nil {
		return %[1]s{}, fmt.Errorf("%%s: %%s %%v: %%w", %[3]sID, %[2]q, key, err)
	}
	if len(out.Item) == 0 {
		return %[1]s{}, fmt.Errorf("%%s: %%s %%v: %%w", %[3]sID, %[2]q, key, designs.ErrNotFound)
	}
	v, ok, err := decodeAs%[1]s(out.Item)
	if err == nil && !ok {
		err = fmt.Errorf("the item's keys do not fit a %%s: %%w", %[2]q, designs.ErrInvalidInput)
	}
	if err != nil {
		return %[1]s{}, fmt.Errorf("%%s: %%w", %[3]sID, err)
	}
	return v.(%[1]s), nil
}`, e.Go, e.Facet, p.Go)
}

func (d design) genQuery(s *scaffold.Source, p *shape.Pattern) {
	vars := d.vars(p)
	var params []string
	for _, v := range vars {
		params = append(params, v.Param()+" string, ")
	}
	index := `""`
	if p.Index != designs.MainTable {
		index = shape.IndexConst(p.Index)
	}
	where := "main table"
	if p.Index != designs.MainTable {
		where = "index " + strconv.Quote(p.Index)
	}
	s.Code("// %s is %s (%s, Query): %q. next is empty on the last page.", p.Go, p.ID, where, p.Doc)
	s.Code("func (t Table) %s(ctx context.Context, %safter designs.Cursor) (page []Entity, next designs.Cursor, err error) {", p.Go, strings.Join(params, ""))
	if len(p.Keys) == 0 {
		value := d.expr(p.Key, (*shape.Var).Param)
		if p.Key.Type == "N" {
			value = member("N", value)
		}
		s.Code("key := expression.Key(%q).Equal(expression.Value(%s))", p.Key.Attr, value)
	} else {
		// A multi-attribute partition key: every attribute by equality,
		// checked against the index's key before the call.
		q := "Schema.KeyQuery(" + index + ")"
		for _, k := range p.Keys {
			value := d.expr(k, (*shape.Var).Param)
			if k.Type == "N" {
				value = member("N", value)
			}
			q += fmt.Sprintf(".\nEqual(%q, %s)", k.Attr, value)
		}
		s.Code("key, err := %s.Build()", q)
		s.Code(`if err != nil {
		return nil, "", fmt.Errorf("%%s: %%w", %sID, err)
	}`, p.Go)
	}
	s.Code(`items, next, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{
		Table: t.Name, Index: %s, Size: PageSize, After: after, Key: key,
	})
	if err != nil {
		return nil, "", fmt.Errorf("%%s: %%w", %sID, err)
	}`, index, p.Go)
	s.Code(`	page = make([]Entity, 0, len(items))
	for _, it := range items {
		e, err := decode(it)
		if err != nil {
			return nil, "", fmt.Errorf("%%s: %%w", %sID, err)
		}
		page = append(page, e)
	}
	return page, next, nil
}`, p.Go)
}
