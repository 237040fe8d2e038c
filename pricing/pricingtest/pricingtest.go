// Package pricingtest holds the items and the table the specs of pricing
// and of the capacity ledger built on it price: items of an exact size,
// and a table with an index of each kind.
package pricingtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// Schema is a table with a GSI on G/GS (ALL), a KEYS_ONLY GSI on K and an
// LSI on L, enough for every rule.
var Schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{
		{Name: "GSI1", PK: "G", SK: "GS"},
		{Name: "Slim", PK: "K", Projection: types.ProjectionTypeKeysOnly},
	},
	LSIs: []designs.Index{{Name: "LSI1", SK: "L"}},
}

// T0 is a time within a second, to show charges truncated to it.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 300_000_000, time.UTC)

// S is a string value.
func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// With returns a copy of item with attributes set, name then value (nil
// deletes one).
func With(item ddbitem.Item, kv ...any) ddbitem.Item {
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

// Sized builds an item of exactly size bytes: PK and SK, padded with a
// string attribute D.
func Sized(pk, sk string, size int) ddbitem.Item {
	item := ddbitem.Item{"PK": S(pk), "SK": S(sk)}
	item["D"] = S(strings.Repeat("x", size-ddbitem.Size(item)-len("D")))
	return item
}

// Items returns n items of size bytes each on partition pk.
func Items(pk string, n, size int) []ddbitem.Item {
	out := make([]ddbitem.Item, n)
	for i := range out {
		out[i] = Sized(pk, fmt.Sprintf("%05d", i), size)
	}
	return out
}
