package designs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor is an opaque position in a paged listing: the LastEvaluatedKey of
// the page before, as URL-safe text. The empty Cursor is the first page, and
// a page returns the empty Cursor when nothing follows it.
type Cursor string

// EncodeCursor turns a LastEvaluatedKey into a Cursor: a JSON object of the
// key's attributes, strings as JSON strings and numbers as JSON numbers with
// their digits as DynamoDB gave them (a float64 would round a number past 15
// or so digits, and DynamoDB keeps 38). A key attribute of another type (a
// binary) is an error.
func EncodeCursor(key map[string]types.AttributeValue) (Cursor, error) {
	if len(key) == 0 {
		return "", nil
	}
	plain := make(map[string]any, len(key))
	for name, v := range key {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			plain[name] = v.Value
		case *types.AttributeValueMemberN:
			plain[name] = json.Number(v.Value) // json.Marshal refuses one that is not a number
		default:
			return "", fmt.Errorf("encode cursor: attribute %s: %T is not a string or number", name, v)
		}
	}
	b, err := json.Marshal(plain)
	if err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	return Cursor(base64.RawURLEncoding.EncodeToString(b)), nil
}

// Decode turns the Cursor back into an ExclusiveStartKey (nil for the first
// page). Text that cannot be a cursor from EncodeCursor (not base64, not a
// JSON object, no attributes, an attribute without a name or whose value is
// neither a string nor a number) is ErrInvalidInput.
func (c Cursor) Decode() (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		return nil, fmt.Errorf("cursor: %w: not a cursor from a previous page", ErrInvalidInput)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) == 0 {
		return nil, fmt.Errorf("cursor: %w: not a cursor from a previous page", ErrInvalidInput)
	}
	key := make(map[string]types.AttributeValue, len(raw))
	for name, v := range raw {
		// v is one valid JSON value: a string starts with '"', a number with
		// '-' or a digit, anything else is no key attribute.
		switch {
		case name == "":
			return nil, fmt.Errorf("cursor: %w: an attribute without a name", ErrInvalidInput)
		case len(v) > 0 && v[0] == '"':
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, fmt.Errorf("cursor: %w: attribute %q: %v", ErrInvalidInput, name, err)
			}
			key[name] = &types.AttributeValueMemberS{Value: s}
		case len(v) > 0 && (v[0] == '-' || '0' <= v[0] && v[0] <= '9'):
			key[name] = &types.AttributeValueMemberN{Value: string(v)}
		default:
			return nil, fmt.Errorf("cursor: %w: attribute %q is not a string or a number", ErrInvalidInput, name)
		}
	}
	return key, nil
}
