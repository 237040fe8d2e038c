package ddbitem

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item size rules: the size of an item is the sum, over its attributes, of
// the attribute name's UTF-8 bytes and the value's size. Strings count their
// UTF-8 bytes, binaries their raw bytes, numbers one byte per two significant
// digits plus one, booleans and nulls one byte. A list or map costs 3 bytes
// plus one byte per element on top of its elements (a map element counts its
// name too). The guide gives no rule for sets; a set here counts its
// elements by the scalar rules, with no overhead.
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
const (
	containerOverhead = 3 // bytes per list or map, whatever it holds
	elementOverhead   = 1 // bytes per list or map element
	scalarOneByte     = 1 // bytes of a BOOL or NULL value
)

// Size returns the size of an item as DynamoDB bills it, in bytes: the
// figure read and write units are rounded from. A nil item is 0 bytes.
func Size(item Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

// valueSize is the size of one attribute value, without its name.
func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return scalarOneByte
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberSize(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberL:
		n := containerOverhead
		for _, e := range v.Value {
			n += elementOverhead + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := containerOverhead
		for name, e := range v.Value {
			n += elementOverhead + len(name) + valueSize(e)
		}
		return n
	}
	return 0
}

// numberSize is one byte per two significant digits, plus one. Leading and
// trailing zeros are not significant; sign, decimal point and exponent are
// not digits.
func numberSize(n string) int {
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		n = n[:i]
	}
	n = strings.TrimLeft(n, "+-")
	n = strings.Replace(n, ".", "", 1)
	n = strings.Trim(n, "0")
	return (len(n)+1)/2 + 1
}
