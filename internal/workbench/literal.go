package workbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// literal is the Go value of item as entity e, written as a composite
// literal qualified by pkg ("shop." or ""): what the generated decode
// returns for the item, so a spec can expect it.
func (d design) literal(e *shape.Entity, item map[string]types.AttributeValue, pkg string) string {
	vals := map[string]string{}
	for _, f := range e.Fields {
		if v, ok := item[f.Attr]; ok {
			if lit, keep := shape.FieldLiteral(f.Type, v); keep {
				vals[f.Go] = lit
			}
		}
	}
	for _, k := range e.Keys {
		v, ok := item[k.Attr]
		if !ok {
			continue
		}
		if k.Flag != "" {
			vals[k.Flag] = "true"
		}
		for x, part := range d.KeyValues(k, ddbitem.KeyText(v)) {
			vals[x.Go] = strconv.Quote(part)
		}
	}
	var fields []string
	for _, v := range e.Vars {
		if v.Field == nil && vals[v.Go] != "" && vals[v.Go] != `""` {
			fields = append(fields, v.Go+": "+vals[v.Go])
		}
	}
	for _, f := range flags(e) {
		if vals[f] != "" {
			fields = append(fields, f+": true")
		}
	}
	for _, f := range e.Fields {
		if lit := vals[f.Go]; lit != "" {
			fields = append(fields, f.Go+": "+lit)
		}
	}
	return fmt.Sprintf("%s%s{%s}", pkg, e.Go, strings.Join(fields, ", "))
}
