package designs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor is an opaque position in a paged listing: the LastEvaluatedKey of
// the page before, as URL-safe text. The empty Cursor is the first page, and
// a page returns the empty Cursor when nothing follows it.
type Cursor string

// EncodeCursor turns a LastEvaluatedKey into a Cursor. Key attributes are
// strings or numbers, which JSON carries without loss.
func EncodeCursor(key map[string]types.AttributeValue) (Cursor, error) {
	if len(key) == 0 {
		return "", nil
	}
	var plain map[string]any
	if err := attributevalue.UnmarshalMap(key, &plain); err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	b, err := json.Marshal(plain)
	if err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	return Cursor(base64.RawURLEncoding.EncodeToString(b)), nil
}

// Decode turns the Cursor back into an ExclusiveStartKey (nil for the first
// page). A cursor that was not made by EncodeCursor is ErrInvalidInput.
func (c Cursor) Decode() (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		return nil, fmt.Errorf("cursor: %w: not a cursor from a previous page", ErrInvalidInput)
	}
	var plain map[string]any
	if err := json.Unmarshal(b, &plain); err != nil || len(plain) == 0 {
		return nil, fmt.Errorf("cursor: %w: not a cursor from a previous page", ErrInvalidInput)
	}
	key, err := attributevalue.MarshalMap(plain)
	if err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	return key, nil
}
