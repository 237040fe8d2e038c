package jsontext

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Unquote is the JSON string raw (its quotes included) read as
// encoding/json reads it; without escapes, control bytes or invalid
// UTF-8, its bytes as they are.
func Unquote(raw []byte) (string, error) {
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

// Same reports whether a and b hold the same value (nil: absent, as
// JSON's null).
func Same(a, b []byte) bool {
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
