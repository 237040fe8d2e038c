package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// The model's sample items are DynamoDB JSON, read by ddbitem.DecodeJSONItem
// with the checks a generated design needs on top.

// decodeItem reads one sample item, refusing what DynamoDB refuses (an
// empty name, nesting past its levels, an item over its size) and a name
// the generated Go's attribute tags cannot carry; errors name the
// attribute's path below at.
func decodeItem(raw json.RawMessage, at string) (map[string]types.AttributeValue, error) {
	item, err := ddbitem.DecodeJSONItem(raw, at)
	var pe *ddbitem.PathError
	if errors.As(err, &pe) {
		return nil, PathErr(pe.Path, pe.Problem)
	}
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(item)) {
		if name == "-" || strings.Contains(name, ",") {
			return nil, PathErr(at+"."+name, fmt.Sprintf("the attribute name %q cannot be a Go attribute tag (a comma ends the name, a lone - skips the field): rename it in the model", name))
		}
	}
	if n := ddbitem.Size(item); n > ddbitem.MaxItemBytes {
		return nil, PathErr(at, fmt.Sprintf("is %s, over DynamoDB's item size limit of %s: DynamoDB would refuse it (make the sample smaller)", figure.Bytes(n), figure.Bytes(ddbitem.MaxItemBytes)))
	}
	return item, nil
}
