package capacity

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// schema is a table with a GSI on G/GS (ALL), a KEYS_ONLY GSI on K and an
// LSI on L.
var schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{
		{Name: "GSI1", PK: "G", SK: "GS"},
		{Name: "Slim", PK: "K", Projection: types.ProjectionTypeKeysOnly},
	},
	LSIs: []designs.Index{{Name: "LSI1", SK: "L"}},
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 300_000_000, time.UTC)

// with returns a copy of item with attributes set (nil deletes one).
func with(item ddbitem.Item, kv ...any) ddbitem.Item {
	out := ddbitem.Item{}
	for k, v := range item {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return out
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// sized builds an item of exactly size bytes: PK and SK, padded with a
// string attribute D.
func sized(pk, sk string, size int) ddbitem.Item {
	item := ddbitem.Item{"PK": s(pk), "SK": s(sk)}
	item["D"] = s(strings.Repeat("x", size-ddbitem.Size(item)-len("D")))
	return item
}

// items returns n items of size bytes each on partition pk.
func items(pk string, n, size int) []ddbitem.Item {
	out := make([]ddbitem.Item, n)
	for i := range out {
		out[i] = sized(pk, fmt.Sprintf("%05d", i), size)
	}
	return out
}
