package ddbtest

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/onsi/gomega/gcustom"
	gtypes "github.com/onsi/gomega/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// SameItem matches an item DynamoDB holds the same as want (ddbitem.Equal:
// numbers by value, sets in any order; nil matches nil); a failure shows
// both as ddbitem.CanonicalJSON writes them.
func SameItem(want map[string]types.AttributeValue) gtypes.GomegaMatcher {
	shown := &itemPair{Want: ddbitem.CanonicalJSON(want)}
	return gcustom.MakeMatcher(func(got map[string]types.AttributeValue) (bool, error) {
		shown.Got = ddbitem.CanonicalJSON(got)
		return ddbitem.Equal(got, want), nil
	}).WithTemplate("Expected\n{{format .Data.Got 1}}\n{{.To}} be the same item as\n{{format .Data.Want 1}}", shown)
}

// itemPair is what a SameItem failure shows.
type itemPair struct{ Got, Want map[string]any }
