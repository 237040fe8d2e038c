package bench

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

func img(state string) capacity.Image {
	return capacity.Image{"PK": &types.AttributeValueMemberS{Value: "K"}, "State": &types.AttributeValueMemberS{Value: state}}
}

func state(i capacity.Image) string {
	if i == nil {
		return "<none>"
	}
	return i["State"].(*types.AttributeValueMemberS).Value
}

func TestShadowPutsOverlappingResponsesInOrder(t *testing.T) {
	key := capacity.Image{"PK": &types.AttributeValueMemberS{Value: "K"}}
	t0 := time.Now()
	tests := []struct {
		name   string
		record func(s *shadow)
		want   string
	}{
		{"in order", func(s *shadow) {
			s.record("t", key, img("A"), img("B"), t0)
			s.record("t", key, img("B"), img("C"), t0)
		}, "C"},
		{"overlapping calls answered out of order: A→B arrives after B→C", func(s *shadow) {
			s.record("t", key, img("B"), img("C"), t0)
			s.record("t", key, img("A"), img("B"), t0)
		}, "C"},
		{"an image that recurs after the earlier move ended is current", func(s *shadow) {
			s.record("t", key, img("A"), img("B"), t0)
			time.Sleep(time.Millisecond)
			later := time.Now()
			s.record("t", key, img("B"), img("C"), later)
			s.record("t", key, img("C"), img("A"), later)
		}, "A"},
		{"a delete answered before the update it followed keeps the item gone", func(s *shadow) {
			s.record("t", key, img("B"), nil, t0)
			s.record("t", key, img("A"), img("B"), t0)
		}, "<none>"},
		{"a consistent read overtaken by an overlapping write does not roll it back", func(s *shadow) {
			s.record("t", key, img("A"), img("B"), t0)
			s.learn("t", img("A"), true, t0)
		}, "B"},
	}
	for _, tt := range tests {
		s := newShadow(designs.Schema{PK: "PK"})
		tt.record(s)
		if got := state(s.get("t", key)); got != tt.want {
			t.Errorf("%s: shadow holds %s, want %s", tt.name, got, tt.want)
		}
	}
}
