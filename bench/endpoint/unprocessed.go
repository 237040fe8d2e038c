package endpoint

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
)

// withUnprocessed is a split batch's answer b with the unprocessed
// requests the emulator held back (in out, the SDK's output) added to
// those DynamoDB Local returned: the one part of such an answer the
// endpoint writes itself.
func withUnprocessed(db *dynamodb.Client, b []byte, out smithy.Serializable) ([]byte, error) {
	whole, err := encodeOutput(db, out)
	if err != nil {
		return nil, err
	}
	wo, err := jsontext.ParseObject(whole)
	if err != nil {
		return nil, err
	}
	bo, err := jsontext.ParseObject(b)
	if err != nil {
		return nil, err
	}
	e := jsontext.Edit{Set: map[string][]byte{}}
	for _, name := range []string{"UnprocessedItems", "UnprocessedKeys"} {
		if v := wo.Get(name); v != nil {
			e.Set[name] = v
		}
	}
	return bo.Apply(e), nil
}
