package designs

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// KeyText renders a key attribute's value as text: strings and numbers as
// they are, binaries in base64; a missing or non-key value is "".
func KeyText(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

// KeyID identifies the item whose key attributes item holds (a whole item
// or only its key), for maps of items: each key value tagged with its type,
// so that the string "1" and the number 1 stay apart. ok is false when a
// key attribute is missing or not a string, number or binary.
func (s Schema) KeyID(item map[string]types.AttributeValue) (id string, ok bool) {
	var b strings.Builder
	for _, attr := range []string{s.PK, s.SK} {
		if attr == "" {
			continue
		}
		switch item[attr].(type) {
		case *types.AttributeValueMemberS:
			b.WriteByte('S')
		case *types.AttributeValueMemberN:
			b.WriteByte('N')
		case *types.AttributeValueMemberB:
			b.WriteByte('B')
		default:
			return "", false
		}
		b.WriteString(KeyText(item[attr]))
		b.WriteByte(0)
	}
	return b.String(), true
}

// KeyOf returns item's primary key attributes and its KeyID; the error
// names a key attribute that is missing or of a type keys cannot have.
func (s Schema) KeyOf(item map[string]types.AttributeValue) (map[string]types.AttributeValue, string, error) {
	id, ok := s.KeyID(item)
	if !ok {
		return nil, "", fmt.Errorf("%w: item lacks a string, number or binary key attribute %s or %s", ErrInvalidInput, s.PK, s.SK)
	}
	key := map[string]types.AttributeValue{s.PK: item[s.PK]}
	if s.SK != "" {
		key[s.SK] = item[s.SK]
	}
	return key, id, nil
}
