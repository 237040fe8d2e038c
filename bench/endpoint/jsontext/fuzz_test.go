package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzEditKeepsEveryOtherByte holds the package to its word for any
// object: it reads the members encoding/json reads, each value's bytes as
// they are; an edit that changes nothing gives the text back as it came;
// and taking one member out or setting one leaves every other member's
// bytes as they were.
func FuzzEditKeepsEveryOtherByte(f *testing.F) {
	for _, s := range []string{`{}`, ` { } `, `{"a":1}`, `{"a":1,"a":2}`,
		`{"TableName":"t","Item":{"PK":{"S":"a\u00e9\"b"},"n":{"N":"1.50"}},"ReturnValues":"NONE"}`,
		"{ \"Key\" :\t{\"PK\":{\"S\":\"x\"}} ,\n\"L\":[1, [2,{}], \"]\"] }",
		"{\"k\\u0000\":\"\xff\",\"\xc3\xa9\":null}", `{"a":`, `[1,2]`, `{"a":1}x`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := ParseObject(b)
		var want map[string]json.RawMessage
		if json.Unmarshal(b, &want) != nil || want == nil {
			return // not an object encoding/json reads
		}
		if err != nil {
			t.Fatalf("%q: an object encoding/json reads: %v", b, err)
		}
		if len(o.Keys()) != len(want) {
			t.Fatalf("%q: keys %q, encoding/json reads %d", b, o.Keys(), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(o.Get(k), v) {
				t.Fatalf("%q: member %q is %q, encoding/json reads %q", b, k, o.Get(k), v)
			}
		}
		if same := o.Apply(Edit{}); !bytes.Equal(same, b) {
			t.Fatalf("%q: an edit of nothing gave %q", b, same)
		}
		for _, k := range o.Keys() {
			dropped := o.Apply(Edit{Drop: []string{k}})
			keeps(t, b, dropped, want, k)
			set := o.Apply(Edit{Set: map[string][]byte{k: []byte(`"new"`)}})
			if got := keeps(t, b, set, want, k); string(got.Get(k)) != `"new"` {
				t.Fatalf("%q: %q set became %q", b, k, got.Get(k))
			}
		}
		added := o.Apply(Edit{Set: map[string][]byte{"\x00added": []byte(`[]`)}})
		if got := keeps(t, b, added, want, "\x00added"); string(got.Get("\x00added")) != `[]` {
			t.Fatalf("%q: a member added became %q", b, got.Get("\x00added"))
		}
	})
}

// keeps checks that edited, b with member k edited, is an object whose
// other members have the bytes want holds, and returns it read.
func keeps(t *testing.T, b, edited []byte, want map[string]json.RawMessage, k string) Object {
	t.Helper()
	if !json.Valid(edited) {
		t.Fatalf("%q: an edit of %q gave %q, not JSON", b, k, edited)
	}
	got, err := ParseObject(edited)
	if err != nil {
		t.Fatalf("%q: an edit of %q gave %q: %v", b, k, edited, err)
	}
	for name, v := range want {
		if name != k && !bytes.Equal(got.Get(name), v) {
			t.Fatalf("%q: an edit of %q made member %q %q", b, k, name, got.Get(name))
		}
	}
	return got
}

// FuzzArrayReadsItsElements holds ParseArray to the elements
// encoding/json reads, each one's bytes as they are, and JoinArray to
// writing them back as the same value, and IsArray to telling the
// arrays encoding/json reads from its other values.
func FuzzArrayReadsItsElements(f *testing.F) {
	for _, s := range []string{`[]`, ` [ ] `, `[1,"a",{"b":[2]},null]`, "[ 1 ,\n2 ]", `[1,]`, `{}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v any
		if json.Unmarshal(b, &v) == nil {
			if _, array := v.([]any); IsArray(b) != array {
				t.Fatalf("%q: IsArray says %v, encoding/json reads %T", b, !array, v)
			}
		}
		elems, err := ParseArray(b)
		var want []json.RawMessage
		if json.Unmarshal(b, &want) != nil || want == nil {
			return
		}
		if err != nil {
			t.Fatalf("%q: an array encoding/json reads: %v", b, err)
		}
		if len(elems) != len(want) {
			t.Fatalf("%q: %d elements, encoding/json reads %d", b, len(elems), len(want))
		}
		for i := range want {
			if !bytes.Equal(elems[i], want[i]) {
				t.Fatalf("%q: element %d is %q, encoding/json reads %q", b, i, elems[i], want[i])
			}
		}
		if j := JoinArray(elems); !Same(j, b) {
			t.Fatalf("%q: written back as %q", b, j)
		}
	})
}
