package meter

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// An image comes back from its encoding as the same values, number text
// and set order included, and so the same item and size.
func TestImageCodecRoundTrip(t *testing.T) {
	item := ddbitem.Item{
		"PK":    &types.AttributeValueMemberS{Value: "USER#1"},
		"N":     &types.AttributeValueMemberN{Value: "1.50"},
		"B":     &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
		"T":     &types.AttributeValueMemberBOOL{Value: true},
		"F":     &types.AttributeValueMemberBOOL{Value: false},
		"Z":     &types.AttributeValueMemberNULL{Value: true},
		"SS":    &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"NS":    &types.AttributeValueMemberNS{Value: []string{"2", "1e3"}},
		"BS":    &types.AttributeValueMemberBS{Value: [][]byte{{9}, {}}},
		"L":     &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: ""}, &types.AttributeValueMemberM{Value: ddbitem.Item{}}}},
		"M":     &types.AttributeValueMemberM{Value: ddbitem.Item{"x": &types.AttributeValueMemberN{Value: "-0"}}},
		"empty": &types.AttributeValueMemberS{Value: ""},
	}
	for _, in := range []ddbitem.Item{item, {}} {
		out, err := decodeItem(encodeItem(nil, in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, in) || ddbitem.Size(out) != ddbitem.Size(in) {
			t.Errorf("decoded %v, want %v", out, in)
		}
	}
	b := encodeItem(nil, item)
	for _, cut := range []int{1, len(b) / 2, len(b) - 1} {
		if _, err := decodeItem(b[:cut]); err == nil {
			t.Errorf("a cut encoding (%d of %d bytes) decoded", cut, len(b))
		}
	}
}

// Stored images come back as they were put, and nil stays no item.
func TestImagesPutGet(t *testing.T) {
	im := newImages()
	if im.f == nil {
		t.Log("no temporary file: images stay in memory")
	}
	a := ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: "a"}}
	b := ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: "b"}, "n": &types.AttributeValueMemberN{Value: "7"}}
	ra, rn, rb := im.put(a), im.put(nil), im.put(b)
	if rn != (ref{}) || im.get(rn) != nil {
		t.Errorf("nil stored as %+v", rn)
	}
	if !reflect.DeepEqual(im.get(ra), a) || !reflect.DeepEqual(im.get(rb), b) {
		t.Errorf("got %v and %v back, want %v and %v", im.get(ra), im.get(rb), a, b)
	}
}
