package ddbitem

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's JSON: each value is an object of one member naming its type.
// The SDK's attributevalue package maps Go values, not this wire text, so
// the harness reads it here: a NoSQL Workbench model's sample items, and
// the requests a client sends bench/endpoint.

// PathError is a value DynamoDB would refuse, at its path below the name
// the caller gave.
type PathError struct{ Path, Problem string }

func (e *PathError) Error() string { return e.Path + ": " + e.Problem }

func pathErr(path, problem string) error { return &PathError{Path: path, Problem: problem} }

// DecodeJSONItem reads an item, an object of attributes in DynamoDB JSON,
// refusing what DynamoDB refuses (an empty name, nesting past its levels,
// a malformed number or set); an error is a *PathError whose path starts
// at at. Numbers are returned as DynamoDB stores them (StoredNumber).
func DecodeJSONItem(raw json.RawMessage, at string) (Item, error) { return decodeMap(raw, at, 1) }

// DecodeJSONValue reads one top-level value in DynamoDB JSON, as
// DecodeJSONItem reads an attribute's.
func DecodeJSONValue(raw json.RawMessage, at string) (types.AttributeValue, error) {
	return decodeValue(raw, at, 1)
}

func jsonType(t string) bool {
	switch t {
	case "S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "M", "L":
		return true
	}
	return false
}

// decodeMap reads an object of attributes whose values stand at level
// (a top-level attribute is level 1).
func decodeMap(raw json.RawMessage, at string, level int) (map[string]types.AttributeValue, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		if level > 1 {
			return nil, pathErr(at, "a map must be an object of attributes, each {\"S\": ...} or another DynamoDB type")
		}
		return nil, pathErr(at, "an item must be an object of attributes, each {\"S\": ...} or another DynamoDB type")
	}
	item := make(map[string]types.AttributeValue, len(attrs))
	for _, name := range slices.Sorted(maps.Keys(attrs)) { // the first bad attribute by name, the same each time
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
	if level > MaxNestingLevels {
		return nil, pathErr(at, fmt.Sprintf("is nested %d levels deep, past DynamoDB's %d: DynamoDB would refuse the item (flatten it)", level, MaxNestingLevels))
	}
	var typed map[string]json.RawMessage
	if err := json.Unmarshal(raw, &typed); err != nil || len(typed) != 1 {
		if len(typed) > 1 {
			return nil, pathErr(at, fmt.Sprintf("an untyped map (members %s): write it with its type, {\"M\": {\"name\": {\"S\": \"text\"}}}", strings.Join(slices.Sorted(maps.Keys(typed)), ", ")))
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
			n, err := StoredNumber(s)
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
					n, err := StoredNumber(s)
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
			if jsonType(strings.ToUpper(t)) {
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
