package meter

import (
	"encoding/binary"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// The shadow keeps item images encoded: an Item is a map of interfaces to
// one allocation per attribute, several times the item's size; encoded it
// is about its size. Values keep their text (numbers as written), so a
// decoded image is the same item to ddbitem.Equal and ddbitem.Size.

const (
	tagS byte = iota + 1
	tagN
	tagB
	tagBOOL
	tagNULL
	tagSS
	tagNS
	tagBS
	tagL
	tagM
)

var errCorrupt = errors.New("meter: corrupt item image")

// encodeItem appends item's encoding to b.
func encodeItem(b []byte, item ddbitem.Item) []byte {
	b = binary.AppendUvarint(b, uint64(len(item)))
	for name, v := range item {
		b = appendBytes(b, []byte(name))
		b = encodeValue(b, v)
	}
	return b
}

func encodeValue(b []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return appendBytes(append(b, tagS), []byte(v.Value))
	case *types.AttributeValueMemberN:
		return appendBytes(append(b, tagN), []byte(v.Value))
	case *types.AttributeValueMemberB:
		return appendBytes(append(b, tagB), v.Value)
	case *types.AttributeValueMemberBOOL:
		return append(b, tagBOOL, b2byte(v.Value))
	case *types.AttributeValueMemberNULL:
		return append(b, tagNULL, b2byte(v.Value))
	case *types.AttributeValueMemberSS:
		return appendStrings(append(b, tagSS), v.Value)
	case *types.AttributeValueMemberNS:
		return appendStrings(append(b, tagNS), v.Value)
	case *types.AttributeValueMemberBS:
		b = binary.AppendUvarint(append(b, tagBS), uint64(len(v.Value)))
		for _, x := range v.Value {
			b = appendBytes(b, x)
		}
		return b
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, tagL), uint64(len(v.Value)))
		for _, x := range v.Value {
			b = encodeValue(b, x)
		}
		return b
	case *types.AttributeValueMemberM:
		return encodeItem(append(b, tagM), v.Value)
	}
	return append(b, 0) // a value of no known type: decoded as nil, as the SDK would not send it
}

func appendBytes(b, x []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(x))), x...) }

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendBytes(b, []byte(s))
	}
	return b
}

func b2byte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// decodeItem is the inverse of encodeItem.
func decodeItem(b []byte) (ddbitem.Item, error) {
	d := decoder{b: b}
	item := d.item()
	if d.err != nil || len(d.b) > 0 {
		return nil, errCorrupt
	}
	return item, nil
}

// decoder reads an encoding, remembering its first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() int {
	n, k := binary.Uvarint(d.b)
	if k <= 0 || n > uint64(len(d.b)) {
		d.err, d.b = errCorrupt, nil
		return 0
	}
	d.b = d.b[k:]
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > len(d.b) {
		d.err, d.b = errCorrupt, nil
		return nil
	}
	x := d.b[:n:n]
	d.b = d.b[n:]
	return x
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errCorrupt
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) strings() []string {
	ss := make([]string, d.uvarint())
	for i := range ss {
		ss[i] = string(d.bytes())
	}
	return ss
}

func (d *decoder) item() ddbitem.Item {
	n := d.uvarint()
	item := make(ddbitem.Item, n)
	for range n {
		name := string(d.bytes())
		item[name] = d.value()
		if d.err != nil {
			return nil
		}
	}
	return item
}

func (d *decoder) value() types.AttributeValue {
	switch d.byte() {
	case tagS:
		return &types.AttributeValueMemberS{Value: string(d.bytes())}
	case tagN:
		return &types.AttributeValueMemberN{Value: string(d.bytes())}
	case tagB:
		return &types.AttributeValueMemberB{Value: append([]byte{}, d.bytes()...)}
	case tagBOOL:
		return &types.AttributeValueMemberBOOL{Value: d.byte() == 1}
	case tagNULL:
		return &types.AttributeValueMemberNULL{Value: d.byte() == 1}
	case tagSS:
		return &types.AttributeValueMemberSS{Value: d.strings()}
	case tagNS:
		return &types.AttributeValueMemberNS{Value: d.strings()}
	case tagBS:
		bs := make([][]byte, d.uvarint())
		for i := range bs {
			bs[i] = append([]byte{}, d.bytes()...)
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case tagL:
		l := make([]types.AttributeValue, d.uvarint())
		for i := range l {
			l[i] = d.value()
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		return &types.AttributeValueMemberM{Value: d.item()}
	}
	return nil
}
