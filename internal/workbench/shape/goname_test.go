package shape_test

import (
	"go/token"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// Names keep their letters and digits, Unicode ones too, so that two
// facets named in another script stay apart instead of becoming A and A2.
func TestGoNameKeepsEveryLetter(t *testing.T) {
	for in, want := range map[string]string{
		"GSI1-PK": "GSI1PK", "first name": "FirstName", "#likes": "Likes",
		"größe": "Größe", "名前": "A名前", "価格": "A価格", "9lives": "A9lives", "": "A", "!!": "A",
	} {
		got := shape.GoName(in)
		if got != want || !token.IsIdentifier(got) || !token.IsExported(got) {
			t.Errorf("GoName(%q) = %q, want %q, an exported identifier", in, got, want)
		}
	}
}
