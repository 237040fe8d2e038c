package meter

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

func img(state string) ddbitem.Item {
	return ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: "K"}, "State": &types.AttributeValueMemberS{Value: state}}
}

func state(i ddbitem.Item) string {
	if i == nil {
		return "<none>"
	}
	return i["State"].(*types.AttributeValueMemberS).Value
}

// to is an assumed write that sets the item to state s.
func to(s string) func(ddbitem.Item) (ddbitem.Item, bool) {
	return func(ddbitem.Item) (ddbitem.Item, bool) { return img(s), true }
}

// TestOrder plays events on one item, each numbered by the test as the
// shadow numbers them, and checks where the rule leaves the item.
func TestOrder(t *testing.T) {
	tests := []struct {
		name   string
		play   func(o *order)
		want   string
		unsure bool
	}{
		{"quiet writes in turn", func(o *order) {
			o.begin(1)
			o.known(2, nil, img("A"))
			o.begin(3)
			o.known(4, img("A"), img("B"))
		}, "B", false},
		{"overlapping writes answered out of order: A→B arrives after B→C", func(o *order) {
			o.begin(1)
			o.begin(2)
			o.known(3, img("B"), img("C"))
			o.known(4, img("A"), img("B"))
		}, "C", false},
		{"an image that recurs in a later episode is current", func(o *order) {
			o.begin(1)
			o.known(2, img("A"), img("B"))
			o.begin(3)
			o.begin(4)
			o.known(5, img("B"), img("C"))
			o.known(6, img("C"), img("A"))
		}, "A", false},
		{"a delete answered before the update it followed keeps the item gone", func(o *order) {
			o.begin(1)
			o.begin(2)
			o.known(3, img("B"), nil)
			o.known(4, img("A"), img("B"))
		}, "<none>", false},
		{"a failed condition overlapping a write shows where the chain passed", func(o *order) {
			o.begin(1)
			o.begin(2)
			o.known(3, img("A"), img("B"))
			o.saw(4, img("A"))
		}, "B", false},
		{"a cycle in one crowded episode is unsure until settled", func(o *order) {
			o.begin(1)
			o.begin(2)
			o.known(3, img("A"), img("B"))
			o.known(4, img("B"), img("A"))
		}, "A", true},
		{"overlapping transactions leave the item unsure", func(o *order) {
			o.image = img("A")
			o.begin(1)
			o.begin(2)
			o.assumed(3, to("B"))
			o.assumed(4, to("C"))
		}, "C", true},
		{"a lone transaction on a sure item is exact", func(o *order) {
			o.image = img("A")
			o.begin(1)
			if _, _, exact, _ := o.assumed(2, to("B")); !exact {
				t.Errorf("a lone transaction on a sure item: not exact")
			}
		}, "B", false},
		{"a write of unknown outcome leaves the item unsure", func(o *order) {
			o.image = img("A")
			o.begin(1)
			o.lost(2)
		}, "A", true},
		{"the next returned image settles an unsure item", func(o *order) {
			o.image, o.unsure = img("A"), true
			o.begin(1)
			o.known(2, img("X"), img("Y"))
		}, "Y", false},
		{"a transaction on an unsure item stays unsure", func(o *order) {
			o.image, o.unsure = img("A"), true
			o.begin(1)
			if _, _, exact, _ := o.assumed(2, to("B")); exact {
				t.Errorf("assumed on an unsure item: exact")
			}
		}, "B", true},
		{"a consistent read sent after the last write settles", func(o *order) {
			o.image, o.unsure = img("A"), true
			o.begin(1)
			o.lost(2)
			o.read(img("Z"), 2)
		}, "Z", false},
		{"a read sent while a write was in flight does not roll it back", func(o *order) {
			o.begin(1)
			o.known(3, img("A"), img("B")) // the read was sent at 2
			o.read(img("A"), 2)
		}, "B", false},
		{"a read answered while a write is in flight does not count", func(o *order) {
			o.image = img("A")
			o.begin(2)
			o.read(img("A"), 5)
			o.known(6, img("A"), img("B"))
		}, "B", false},
	}
	for _, tt := range tests {
		o := &order{}
		tt.play(o)
		if got := state(o.image); got != tt.want || o.unsure != tt.unsure {
			t.Errorf("%s: image %s, unsure %v; want %s, unsure %v", tt.name, got, o.unsure, tt.want, tt.unsure)
		}
		if o.inflight != 0 {
			t.Errorf("%s: %d writes still in flight", tt.name, o.inflight)
		}
	}
}

func TestChainEnd(t *testing.T) {
	mv := func(a, b string) move { return move{img(a), img(b)} }
	tests := []struct {
		name  string
		moves []move
		want  string
		ok    bool
	}{
		{"a chain", []move{mv("B", "C"), mv("A", "B"), mv("C", "D")}, "D", true},
		{"two moves to one image", []move{mv("A", "C"), mv("B", "C")}, "C", true},
		{"a fork", []move{mv("A", "B"), mv("A", "C")}, "", false},
		{"only failed conditions, agreeing", []move{mv("A", "A"), mv("A", "A")}, "A", true},
		{"only failed conditions, disagreeing", []move{mv("A", "A"), mv("B", "B")}, "", false},
	}
	for _, tt := range tests {
		end, ok := chainEnd(tt.moves)
		if ok != tt.ok || (ok && state(end) != tt.want) {
			t.Errorf("%s: chainEnd = %s, %v; want %s, %v", tt.name, state(end), ok, tt.want, tt.ok)
		}
	}
}
