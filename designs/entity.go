package designs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Decoder reads an item into one entity type; ok is false when the
// item's keys do not fit that entity's key layouts.
type Decoder[E any] func(item map[string]types.AttributeValue) (e E, ok bool, err error)

// TypeDecoder reads the items of one entity type, named by the value of
// the type attribute.
type TypeDecoder[E any] struct {
	Type   string
	Decode Decoder[E]
}

// Decode reads an item of a table that holds several entity types: by the
// value of its type attribute, or, when the item has none (an index that
// does not project it), by the first of decoders whose layouts its keys
// fit. An item no decoder takes is ErrInvalidInput.
func Decode[E any](item map[string]types.AttributeValue, typeAttribute string, decoders []TypeDecoder[E]) (E, error) {
	var zero E
	if name, ok := item[typeAttribute].(*types.AttributeValueMemberS); ok {
		i := slices.IndexFunc(decoders, func(d TypeDecoder[E]) bool { return d.Type == name.Value })
		if i < 0 {
			return zero, fmt.Errorf("%s %q: %w: no entity of this design has that type", typeAttribute, name.Value, ErrInvalidInput)
		}
		e, ok, err := decoders[i].Decode(item)
		if err == nil && !ok {
			err = fmt.Errorf("a %s item whose keys do not fit its layout: %w", name.Value, ErrInvalidInput)
		}
		return e, err
	}
	for _, d := range decoders {
		if e, ok, err := d.Decode(item); ok || err != nil {
			return e, err
		}
	}
	return zero, fmt.Errorf("an item whose keys fit no entity's layout: %w", ErrInvalidInput)
}

// KeyText is the text of a string or number key attribute of item, and
// whether item has it. Unlike ddbitem.KeyText, a binary is not found: the
// key layouts it reads are text.
func KeyText(item map[string]types.AttributeValue, name string) (string, bool) {
	switch v := item[name].(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// TypeAttributes are the attributes single-table designs commonly keep an
// item's entity type in, the most usual first: where a schema declares no
// TypeAttribute, the lint, the Workbench import and the export try them.
var TypeAttributes = []string{"EntityType", "entityType", "Type", "type", "_type", "_et"}

// ItemType is the entity type of an item or index entry: the text of the
// schema's TypeAttribute, or else of the first of TypeAttributes it holds;
// without either, the shape of pk, the entry's partition key: its text up
// to and with the first '#' ("USER#"), or the whole text.
func (s Schema) ItemType(item map[string]types.AttributeValue, pk string) string {
	attrs := TypeAttributes
	if s.TypeAttribute != "" {
		attrs = []string{s.TypeAttribute}
	}
	for _, a := range attrs {
		if t := ddbitem.KeyText(item[a]); t != "" {
			return t
		}
	}
	text := ddbitem.KeyText(item[pk])
	if i := strings.IndexByte(text, '#'); i >= 0 {
		return text[:i+1]
	}
	return text
}
