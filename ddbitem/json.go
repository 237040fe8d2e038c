package ddbitem

import (
	"encoding/base64"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// JSON renders an item in DynamoDB's JSON ({"S": "x"}, {"N": "1.50"},
// {"SS": [...]}), as values encoding/json writes with attribute names in
// order. Sets are sorted, since DynamoDB keeps no order in them: the same
// item always writes the same text. A nil item is nil.
func JSON(item Item) map[string]any { return jsonItem(item, false) }

// CanonicalJSON is JSON with every number written by its exact value
// (CanonicalNumber): two items DynamoDB returns render equal exactly when
// Equal holds, which makes it the form for readable failures and for
// matching many items. (Equal also holds between a nil and an empty item,
// which render null and {}.)
func CanonicalJSON(item Item) map[string]any { return jsonItem(item, true) }

func jsonItem(item Item, canonical bool) map[string]any {
	if item == nil {
		return nil
	}
	out := make(map[string]any, len(item))
	for name, v := range item {
		out[name] = jsonValue(v, canonical)
	}
	return out
}

func jsonValue(v types.AttributeValue, canonical bool) map[string]any {
	number := func(n string) string { return n }
	if canonical {
		number = CanonicalNumber
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": number(v.Value)}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": slices.Sorted(slices.Values(v.Value))}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": sortedText(v.Value, number)}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": sortedText(v.Value, base64.StdEncoding.EncodeToString)}
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = jsonValue(e, canonical)
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		m := jsonItem(v.Value, canonical)
		if m == nil {
			m = map[string]any{} // an empty map, not JSON's null
		}
		return map[string]any{"M": m}
	}
	return map[string]any{"NULL": true} // NULL, and nothing else DynamoDB stores
}

// sortedText writes each element of a set as text, in sorted order.
func sortedText[T any](set []T, text func(T) string) []string {
	out := make([]string, len(set))
	for i, e := range set {
		out[i] = text(e)
	}
	slices.Sort(out)
	return out
}
