package shape

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// FieldLiteral is a stored attribute's Go literal for a field of type t;
// keep is false for a zero value, which omitempty leaves out on write and
// decoding leaves zero.
func FieldLiteral(t string, v types.AttributeValue) (lit string, keep bool) {
	switch t {
	case "S", "N", "BOOL", "B", "SS", "NS", "BS":
		lit = anyLiteral(v, false)
	case "M", "L":
		lit = anyLiteral(v, false)
		if m, ok := v.(*types.AttributeValueMemberM); ok && len(m.Value) == 0 {
			return "", false
		}
		if l, ok := v.(*types.AttributeValueMemberL); ok && len(l.Value) == 0 {
			return "", false
		}
	default:
		lit = anyLiteral(v, true)
	}
	switch lit {
	case `""`, "0", "false", "nil":
		return "", false
	}
	return lit, true
}

// anyLiteral writes v as attributevalue decodes it: boxed (inside an any)
// numbers are float64.
func anyLiteral(v types.AttributeValue, boxed bool) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		f, _ := strconv.ParseFloat(v.Value, 64)
		n := strconv.FormatFloat(f, 'g', -1, 64)
		if boxed {
			return "float64(" + n + ")"
		}
		return n
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "nil"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("[]byte(%q)", v.Value)
	case *types.AttributeValueMemberSS: // sets sorted, as the generated decode keeps them
		return scaffold.StringSlice(slices.Sorted(slices.Values(v.Value)))
	case *types.AttributeValueMemberNS:
		var fs []float64
		for _, s := range v.Value {
			f, _ := strconv.ParseFloat(s, 64)
			fs = append(fs, f)
		}
		slices.Sort(fs)
		var parts []string
		for _, f := range fs {
			parts = append(parts, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return "[]float64{" + strings.Join(parts, ", ") + "}"
	case *types.AttributeValueMemberBS:
		var parts []string
		for _, b := range slices.SortedFunc(slices.Values(v.Value), bytes.Compare) {
			parts = append(parts, fmt.Sprintf("[]byte(%q)", b))
		}
		return "[][]byte{" + strings.Join(parts, ", ") + "}"
	case *types.AttributeValueMemberM:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v.Value)) {
			parts = append(parts, strconv.Quote(k)+": "+anyLiteral(v.Value[k], true))
		}
		return "map[string]any{" + strings.Join(parts, ", ") + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range v.Value {
			parts = append(parts, anyLiteral(e, true))
		}
		return "[]any{" + strings.Join(parts, ", ") + "}"
	}
	return "nil"
}
