package jsontext

import (
	"errors"
	"fmt"
	"slices"
)

// Member is one member of a JSON object: its key, its value's text, and
// where the member lies in the object's text.
type Member struct {
	Key        string
	Value      []byte
	start, end int // the member's text, from its key's quote to its value's end
}

// Object is a JSON object's text and its members in order.
type Object struct {
	text    []byte
	members []Member
	close   int // index of the closing brace
}

// ErrNotObject is the error for text that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// ParseObject reads the members of the JSON object b (space around it
// allowed). It checks the object's outline, not its values.
func ParseObject(b []byte) (Object, error) {
	o := Object{text: b}
	i := space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return o, ErrNotObject
	}
	i = space(b, i+1)
	if i < len(b) && b[i] == '}' {
		o.close = i
		return o, trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return o, fmt.Errorf("want a member's name at byte %d", i)
		}
		kend, err := skip(b, i)
		if err != nil {
			return o, err
		}
		key, err := Unquote(b[i:kend])
		if err != nil {
			return o, err
		}
		j := space(b, kend)
		if j >= len(b) || b[j] != ':' {
			return o, fmt.Errorf("want ':' at byte %d", j)
		}
		vstart := space(b, j+1)
		vend, err := skip(b, vstart)
		if err != nil {
			return o, err
		}
		o.members = append(o.members, Member{Key: key, Value: b[vstart:vend], start: i, end: vend})
		i = space(b, vend)
		switch {
		case i < len(b) && b[i] == ',':
			i = space(b, i+1)
		case i < len(b) && b[i] == '}':
			o.close = i
			return o, trailing(b, i+1)
		default:
			return o, fmt.Errorf("want ',' or '}' at byte %d", i)
		}
	}
}

// Members are o's members in order, a key that is there more than once
// each time; the slice is o's own, to be read, not changed.
func (o Object) Members() []Member {
	return o.members
}

// Get is the value of the member named key, nil when absent; the last,
// when the key is there more than once, as JSON readers take it.
func (o Object) Get(key string) []byte {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].Key == key {
			return o.members[i].Value
		}
	}
	return nil
}

// Keys are o's member names, each once, in order of first appearance.
func (o Object) Keys() []string {
	var ks []string
	for _, m := range o.members {
		if !slices.Contains(ks, m.Key) {
			ks = append(ks, m.Key)
		}
	}
	return ks
}
