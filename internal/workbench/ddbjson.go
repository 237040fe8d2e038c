package workbench

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// DynamoDB's JSON: each value is an object of one member naming its type.
// The SDK's attributevalue package maps Go values, not this wire text, so
// the model's sample items are read and written here.

// decodeItem reads one sample item, refusing what DynamoDB refuses (an
// empty name, nesting past its levels, an item over its size) and a name
// the generated Go's attribute tags cannot carry; errors name the
// attribute's path below at.
func decodeItem(raw json.RawMessage, at string) (map[string]types.AttributeValue, error) {
	item, err := decodeMap(raw, at, 1)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(item) {
		if name == "-" || strings.Contains(name, ",") {
			return nil, pathErr(at+"."+name, fmt.Sprintf("the attribute name %q cannot be a Go attribute tag (a comma ends the name, a lone - skips the field): rename it in the model", name))
		}
	}
	if n := ddbitem.Size(item); n > ddbitem.MaxItemBytes {
		return nil, pathErr(at, fmt.Sprintf("is %s, over DynamoDB's item size limit of %s: DynamoDB would refuse it (make the sample smaller)", figure.Bytes(n), figure.Bytes(ddbitem.MaxItemBytes)))
	}
	return item, nil
}

// decodeMap reads an object of attributes whose values stand at level
// (a top-level attribute is level 1).
func decodeMap(raw json.RawMessage, at string, level int) (map[string]types.AttributeValue, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		if level > 1 {
			return nil, pathErr(at, "a map must be an object of attributes, each {\"S\": ...} or another DynamoDB type")
		}
		return nil, pathErr(at, "a sample item must be an object of attributes, each {\"S\": ...} or another DynamoDB type")
	}
	item := make(map[string]types.AttributeValue, len(attrs))
	for _, name := range sortedKeys(attrs) { // the first bad attribute by name, the same each time
		if name == "" {
			return nil, pathErr(at, "has an attribute with an empty name, which DynamoDB refuses: name it in the model")
		}
		av, err := decodeValue(attrs[name], at+"."+name, level)
		if err != nil {
			return nil, err
		}
		item[name] = av
	}
	return item, nil
}

// decodeValue reads one typed value standing at level.
func decodeValue(raw json.RawMessage, at string, level int) (types.AttributeValue, error) {
	if level > ddbitem.MaxNestingLevels {
		return nil, pathErr(at, fmt.Sprintf("is nested %d levels deep, past DynamoDB's %d: DynamoDB would refuse the item (flatten the sample)", level, ddbitem.MaxNestingLevels))
	}
	var typed map[string]json.RawMessage
	if err := json.Unmarshal(raw, &typed); err != nil || len(typed) != 1 {
		if len(typed) > 1 {
			return nil, pathErr(at, fmt.Sprintf("an untyped map (members %s): write it with its type, {\"M\": {\"name\": {\"S\": \"text\"}}}", strings.Join(sortedKeys(typed), ", ")))
		}
		return nil, pathErr(at, "want one type member, e.g. {\"S\": \"text\"} or {\"N\": \"42\"}")
	}
	for t, v := range typed {
		bad := func(want string) error { return pathErr(at+"."+t, "want "+want) }
		switch t {
		case "S":
			if s, ok := decodeAs[string](v, nil); ok {
				return &types.AttributeValueMemberS{Value: s}, nil
			}
			return nil, bad("a string")
		case "N":
			s, ok := decodeAs[string](v, nil)
			if !ok {
				return nil, bad("a number written as a string, e.g. \"42\"")
			}
			n, err := ddbitem.StoredNumber(s)
			if err != nil {
				return nil, pathErr(at+"."+t, err.Error())
			}
			return &types.AttributeValueMemberN{Value: n}, nil
		case "B":
			b, err := decodeBinary(v)
			if err != nil {
				return nil, bad("base64 text")
			}
			return &types.AttributeValueMemberB{Value: b}, nil
		case "BOOL":
			if b, ok := decodeAs[bool](v, nil); ok {
				return &types.AttributeValueMemberBOOL{Value: b}, nil
			}
			return nil, bad("true or false")
		case "NULL":
			if _, ok := decodeAs(v, func(b bool) bool { return b }); ok {
				return &types.AttributeValueMemberNULL{Value: true}, nil
			}
			return nil, bad("true")
		case "SS", "NS":
			ss, ok := decodeAs(v, func(ss []string) bool { return len(ss) > 0 })
			if !ok {
				return nil, bad("a non-empty list of strings")
			}
			if t == "NS" {
				for i, s := range ss {
					n, err := ddbitem.StoredNumber(s)
					if err != nil {
						return nil, pathErr(fmt.Sprintf("%s.NS[%d]", at, i), err.Error())
					}
					ss[i] = n
				}
			}
			// DynamoDB refuses a set that holds one element twice; numbers
			// are one when their values are ("1" and "1.0").
			if dup := duplicate(ss); dup != "" {
				return nil, bad(fmt.Sprintf("no element twice (%s is)", dup))
			}
			if t == "SS" {
				return &types.AttributeValueMemberSS{Value: ss}, nil
			}
			return &types.AttributeValueMemberNS{Value: ss}, nil
		case "BS":
			ss, ok := decodeAs(v, func(ss []json.RawMessage) bool { return len(ss) > 0 })
			if !ok {
				return nil, bad("a non-empty list of base64 texts")
			}
			out := &types.AttributeValueMemberBS{}
			var texts []string
			for _, s := range ss {
				b, err := decodeBinary(s)
				if err != nil {
					return nil, bad("a non-empty list of base64 texts")
				}
				out.Value = append(out.Value, b)
				texts = append(texts, base64.StdEncoding.EncodeToString(b))
			}
			if dup := duplicate(texts); dup != "" {
				return nil, bad(fmt.Sprintf("no element twice (%s is)", dup))
			}
			return out, nil
		case "M":
			m, err := decodeMap(v, at+".M", level+1)
			if err != nil {
				return nil, err
			}
			return &types.AttributeValueMemberM{Value: m}, nil
		case "L":
			list, ok := decodeAs[[]json.RawMessage](v, nil)
			if !ok {
				return nil, bad("a list of typed values")
			}
			out := &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
			for i, e := range list {
				av, err := decodeValue(e, fmt.Sprintf("%s.L[%d]", at, i), level+1)
				if err != nil {
					return nil, err
				}
				out.Value = append(out.Value, av)
			}
			return out, nil
		default:
			if strings.HasSuffix(at, ".M.M") {
				return nil, pathErr(at, "a map wrapped twice ({\"M\": {\"M\": ...}}): write {\"M\": {...}} once")
			}
			if validType(strings.ToUpper(t)) {
				return nil, pathErr(at, fmt.Sprintf("unknown type %q: DynamoDB's type names are in capitals (%s)", t, strings.ToUpper(t)))
			}
			return nil, pathErr(at, fmt.Sprintf("unknown type %q: an untyped value or map? write each value with its type, e.g. {\"S\": \"text\"}, {\"M\": {\"name\": {\"S\": \"text\"}}} (types: S, N, B, BOOL, NULL, SS, NS, BS, M, L)", t))
		}
	}
	panic("unreachable")
}

// decodeAs reads v as a T that valid accepts (nil: any T).
func decodeAs[T any](v json.RawMessage, valid func(T) bool) (T, bool) {
	var x T
	ok := json.Unmarshal(v, &x) == nil && (valid == nil || valid(x))
	return x, ok
}

func decodeBinary(raw json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}

// duplicate is an element ss holds twice, "" when none is.
func duplicate(ss []string) string {
	seen := make(map[string]bool, len(ss))
	for _, s := range ss {
		if seen[s] {
			return strconv.Quote(s)
		}
		seen[s] = true
	}
	return ""
}
