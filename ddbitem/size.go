package ddbitem

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item size rules, as DynamoDB measures an item against its 409,600-byte
// limit and rounds read and write units from it. An item is the sum, over
// its attributes, of the name's UTF-8 bytes and the value's size. Every rule
// below was checked against figures measured on the real service; the tests
// in size_real_test.go hold one row per figure, with its source.
//
//   - S: UTF-8 bytes; B: raw bytes. An item of exactly 409,600 such bytes is
//     stored and one byte more is refused.
//     https://github.com/architect/dynalite/blob/c5e5b46ef5e51e7d907411c001db7839dd146088/test/putItem.js
//     https://github.com/paritysuite/dynamodb-conformance/blob/3aebbc9c55a20dc8b83d32b104ee279f4af6a0c7/tests/tier3/limits/itemSizeBySurface.test.ts
//   - N: see numberSize.
//   - BOOL, NULL: 1 byte.
//   - L, M: 3 bytes, plus 1 byte per element on top of the element (a map
//     element counts its name too), at every depth. Dense and nested lists
//     and maps pin both figures; items holding BOOL, NULL, L and M read one
//     unit at 4,096 bytes and two at 4,097, which pins all four together.
//     https://github.com/ExtendDB/extenddb/blob/c9e23d5a9947a1af096f7be881bcbccae4f2ad47/tests/test_list_map_item_size.py
//     https://github.com/architect/dynalite/blob/c5e5b46ef5e51e7d907411c001db7839dd146088/test/getItem.js
//   - SS, NS, BS: the sum of the elements, no per-set or per-element bytes.
//     Measured on BS at a write-unit boundary and on an NS of 20,479
//     38-digit numbers that fits under the limit.
//     https://github.com/architect/dynalite/blob/c5e5b46ef5e51e7d907411c001db7839dd146088/test/putItem.js
//     https://github.com/ExtendDB/extenddb/issues/91
//   - An empty L or M is 3 bytes (developer guide); an empty S or B costs
//     its name alone (inferred; not measured).
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
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
		return sumOf(v.Value, func(s string) int { return len(s) })
	case *types.AttributeValueMemberNS:
		return sumOf(v.Value, numberSize)
	case *types.AttributeValueMemberBS:
		return sumOf(v.Value, func(b []byte) int { return len(b) })
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

// sumOf adds up size over a set's members: a set has no overhead of its own.
func sumOf[T any](set []T, size func(T) int) int {
	n := 0
	for _, m := range set {
		n += size(m)
	}
	return n
}

// numberSize is a number's size: one byte, plus one per base-100 digit,
// plus one if negative; zero is one byte. The digits are pairs of decimal
// digits aligned on the decimal point, counted from the pair holding the
// first significant digit to the pair holding the last. So 15 is 2 bytes but
// 1.5 (01.50) is 3, 3.14159 is 5, 123456 is 4, 100.5 is 4, 0.15 is 2, 100 is
// 2, 1E125 is 2 and -42 is 3: byte-exact figures bisected at the item-size
// limit in eu-west-2.
// https://github.com/nubo-db/dynamodb-conformance/blob/e776beb2e73bfce88ed8081e33bb1dae977a4dd9/src/item-size.ts
// https://github.com/nubo-db/dynoxide/blob/9366d253296810cfbcafde954166e5c091e71068/src/types.rs
// Where trimmed zeros leave an odd gap (120, 0.015) no figure was published;
// pairing on the point there too (3 bytes each) is inferred.
func numberSize(n string) int {
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimLeft(n, "+-")
	exp := 0
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(n[i+1:]) // an unparsable exponent counts as 0
		n = n[:i]
	}
	point := len(n) + exp // digits before the decimal point, once shifted
	if i := strings.IndexByte(n, '.'); i >= 0 {
		point = i + exp
		n = n[:i] + n[i+1:]
	}
	first := strings.IndexFunc(n, isNonZeroDigit)
	if first < 0 {
		return 1 // zero, however it is spelled
	}
	last := strings.LastIndexFunc(n, isNonZeroDigit)
	// Digit k stands for 10^(point-1-k); pair p holds 10^(2p) and 10^(2p+1).
	digits := pair(point-1-first) - pair(point-1-last) + 1
	size := 1 + digits // an exponent byte, then the digits
	if neg {
		size++
	}
	return size
}

func isNonZeroDigit(r rune) bool { return r >= '1' && r <= '9' }

// pair is the base-100 digit holding 10^power: power/2, rounded down.
func pair(power int) int {
	if power < 0 {
		return -((1 - power) / 2)
	}
	return power / 2
}
