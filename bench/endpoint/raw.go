package endpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// DynamoDB's JSON, edited as text: a member is taken out or its value
// replaced, and every other byte stays as it came, so that what the
// client sent reaches DynamoDB Local spelt as sent (numbers, escapes,
// invalid UTF-8) and Local's answer reaches the client spelt as Local
// wrote it.

// member is one member of a JSON object: its key, and where its value
// lies in the object's text.
type member struct {
	key        string
	start, end int // the member's text, from its key's quote to its value's end
	val        []byte
}

// object is a JSON object's text and its members in order.
type object struct {
	text    []byte
	members []member
	close   int // index of the closing brace
}

var errNotObject = errors.New("not a JSON object")

// parseObject reads the members of the JSON object b (space around it
// allowed). It checks the object's outline, not its values: the text
// edited is text DynamoDB Local or the SDK read whole (json.Valid).
func parseObject(b []byte) (object, error) {
	o := object{text: b}
	i := space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return o, errNotObject
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
		key, err := jsonString(b[i:kend])
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
		o.members = append(o.members, member{key: key, start: i, end: vend, val: b[vstart:vend]})
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

// parseArray reads the elements of the JSON array b.
func parseArray(b []byte) ([][]byte, error) {
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

func trailing(b []byte, i int) error {
	if space(b, i) != len(b) {
		return fmt.Errorf("text after the value at byte %d", i)
	}
	return nil
}

func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skip returns the end of the JSON value that starts at b[i].
func skip(b []byte, i int) (int, error) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				return 0, errors.New("unterminated string")
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			if depth < 0 {
				return 0, fmt.Errorf("unexpected %q at byte %d", c, i)
			}
			i++
		case ' ', '\t', '\n', '\r', ',', ':':
			if depth == 0 {
				return 0, fmt.Errorf("unexpected %q at byte %d", c, i)
			}
			i++
			continue
		default:
			start := i
			for i < len(b) && !delimiter[b[i]] {
				i++
			}
			if i == start {
				return 0, fmt.Errorf("unexpected byte at %d", i)
			}
		}
		if depth == 0 {
			return i, nil
		}
	}
	return 0, errors.New("unexpected end of JSON")
}

// delimiter marks the bytes that end a literal (a number, true, false,
// null).
var delimiter = func() (d [256]bool) {
	for _, c := range []byte(" \t\n\r,:]}[{\"") {
		d[c] = true
	}
	return d
}()

// jsonString is the JSON string raw (its quotes included) read as
// encoding/json reads it; without escapes, control bytes or invalid
// UTF-8, its bytes as they are.
func jsonString(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		in := raw[1 : len(raw)-1]
		plain := true
		for _, c := range in {
			if c < 0x20 || c == '\\' || c == '"' || c >= utf8.RuneSelf {
				plain = false
				break
			}
		}
		if plain {
			return string(in), nil
		}
	}
	var v string
	err := json.Unmarshal(raw, &v)
	return v, err
}

// get is the value of the member named key, nil when absent; the last,
// when the key is there more than once, as JSON readers take it.
func (o object) get(key string) []byte {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return o.members[i].val
		}
	}
	return nil
}

// keys are o's member names, each once, in order of first appearance.
func (o object) keys() []string {
	var ks []string
	for _, m := range o.members {
		if !contains(ks, m.key) {
			ks = append(ks, m.key)
		}
	}
	return ks
}

// edit is one change to an object's text: the members named in drop
// taken out, those in set given a new value (added at the end when
// absent).
type edit struct {
	drop []string
	set  map[string][]byte
}

// apply is o's text with e made, every other byte as it was.
func (o object) apply(e edit) []byte {
	var kept [][]byte
	done := map[string]bool{}
	changed := false
	for _, m := range o.members {
		if contains(e.drop, m.key) {
			changed = true
			continue
		}
		if v, ok := e.set[m.key]; ok {
			done[m.key], changed = true, true
			kb, _ := json.Marshal(m.key)
			kept = append(kept, append(append(kb, ':'), v...))
			continue
		}
		kept = append(kept, o.text[m.start:m.end])
	}
	for k, v := range e.set {
		if !done[k] {
			changed = true
			kb, _ := json.Marshal(k)
			kept = append(kept, append(append(kb, ':'), v...))
		}
	}
	if !changed {
		return o.text
	}
	// Members are joined as DynamoDB writes them, without space.
	open := bytes.IndexByte(o.text, '{')
	out := append([]byte{}, o.text[:open+1]...)
	out = append(out, bytes.Join(kept, []byte(","))...)
	return append(out, o.text[o.close:]...)
}

func contains(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// sameJSON reports whether a and b hold the same value (nil: absent, as
// JSON's null).
func sameJSON(a, b []byte) bool {
	switch {
	case bytes.Equal(a, b):
		return len(a) == 0 || json.Valid(a)
	case len(a) == 0:
		return bytes.Equal(bytes.TrimSpace(b), []byte("null"))
	case len(b) == 0:
		return bytes.Equal(bytes.TrimSpace(a), []byte("null"))
	}
	var x, y any
	if len(a) > 0 && json.Unmarshal(a, &x) != nil {
		return false
	}
	if len(b) > 0 && json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonEqual(x, y)
}

func jsonEqual(x, y any) bool {
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// joinArray writes elems as a JSON array, without space.
func joinArray(elems [][]byte) []byte {
	out := []byte{'['}
	out = append(out, bytes.Join(elems, []byte(","))...)
	return append(out, ']')
}
