package jsontext

import (
	"bytes"
	"errors"
	"fmt"
)

// ParseArray reads the elements of the JSON array b (space around it
// allowed), each element's text as it is.
func ParseArray(b []byte) ([][]byte, error) {
	i := space(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, errors.New("not a JSON array")
	}
	var elems [][]byte
	i = space(b, i+1)
	if i < len(b) && b[i] == ']' {
		return elems, trailing(b, i+1)
	}
	for {
		end, err := skip(b, i)
		if err != nil {
			return nil, err
		}
		elems = append(elems, b[i:end])
		i = space(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = space(b, i+1)
		case i < len(b) && b[i] == ']':
			return elems, trailing(b, i+1)
		default:
			return nil, fmt.Errorf("want ',' or ']' at byte %d", i)
		}
	}
}

// IsArray reports whether the JSON value v (space before it allowed) is
// an array, by its first byte alone.
func IsArray(v []byte) bool {
	i := space(v, 0)
	return i < len(v) && v[i] == '['
}

// JoinArray writes elems as a JSON array, without space.
func JoinArray(elems [][]byte) []byte {
	out := []byte{'['}
	out = append(out, bytes.Join(elems, []byte(","))...)
	return append(out, ']')
}
