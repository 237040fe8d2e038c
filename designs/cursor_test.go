package designs_test

import (
	"encoding/base64"
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// FuzzCursorDecode feeds Decode text a caller may have made up: it never
// panics, refuses with ErrInvalidInput only, and a key it accepts holds
// only string and number attributes (the only key types a cursor carries)
// and comes back the same through EncodeCursor and Decode again.
func FuzzCursorDecode(f *testing.F) {
	for _, key := range []map[string]types.AttributeValue{
		{"PK": &types.AttributeValueMemberS{Value: "CLIENT#1"}, "SK": &types.AttributeValueMemberS{Value: "#INVOICE#2"}},
		{"PK": &types.AttributeValueMemberS{Value: "2026"}, "Year": &types.AttributeValueMemberN{Value: "2026"}},
		{"pk": &types.AttributeValueMemberS{Value: "naïve <&> \"quoted\" \u2028"}},
		{"N": &types.AttributeValueMemberN{Value: "-1.5E+3"}},
		{"N": &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"}}, // 38 digits, beyond float64
	} {
		c, err := designs.EncodeCursor(key)
		if err != nil {
			f.Fatalf("EncodeCursor(%v) error %v", key, err)
		}
		f.Add(string(c))
	}
	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, seed := range []string{
		"", "!!!", "e30", "bm90IGpzb24", // not base64, {}, "not json"
		b64("{}"), b64("[]"), b64(`["PK","x"]`), b64("null"), b64(`"PK"`), b64("1"),
		b64(`{"PK":true}`), b64(`{"PK":null}`), b64(`{"PK":{"S":"x"}}`), b64(`{"PK":["x"]}`),
		b64(`{"PK":1e400}`), b64(`{"PK":"x"} trailing`), b64(`{"PK":"x","PK":2}`), b64("{\"PK\":\"\xff\"}"),
		b64(` { "PK" : -0.50 , "SK" : "x" } `), b64(`{"PK":"\ud800\u00e9"}`),
		base64.StdEncoding.EncodeToString([]byte(`{"PK":"x?"}`)), // padded, standard alphabet
		"eyIiOiI0In0", // {"":"4"}: found by the fuzzer, an error that was not ErrInvalidInput
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		key, err := designs.Cursor(text).Decode()
		if err != nil {
			if !errors.Is(err, designs.ErrInvalidInput) {
				t.Fatalf("Cursor(%q).Decode() error %v, want an ErrInvalidInput", text, err)
			}
			return
		}
		if text == "" {
			if key != nil {
				t.Fatalf(`Cursor("").Decode() = %v, want nil (the first page)`, key)
			}
			return
		}
		if len(key) == 0 {
			t.Fatalf("Cursor(%q).Decode() = empty key, no error: want a key or ErrInvalidInput", text)
		}
		for name, v := range key {
			switch v.(type) {
			case *types.AttributeValueMemberS, *types.AttributeValueMemberN:
			default:
				t.Fatalf("Cursor(%q).Decode()[%q] = %T, want a string or a number", text, name, v)
			}
		}
		again, err := designs.EncodeCursor(key)
		if err != nil {
			t.Fatalf("EncodeCursor(Cursor(%q).Decode() = %v) error %v", text, key, err)
		}
		back, err := again.Decode()
		if err != nil {
			t.Fatalf("Cursor(%q).Decode() (re-encoded from Cursor(%q)) error %v", again, text, err)
		}
		if !reflect.DeepEqual(back, key) {
			t.Fatalf("Cursor(%q) decodes to %v, re-encoded as %q decodes to %v", text, key, again, back)
		}
	})
}
