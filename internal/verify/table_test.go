package verify

import (
	"strings"
	"testing"
)

func TestWriteMarkdownNamesTheNarrowing(t *testing.T) {
	cov := Measure(nil, nil)
	var every strings.Builder
	if err := cov.WriteMarkdown(&every, "http://x"); err != nil {
		t.Fatal(err)
	}
	cov.Designs, cov.Catalog = []string{"shop", "invoicing"}, 33
	var narrowed strings.Builder
	if err := cov.WriteMarkdown(&narrowed, "http://x"); err != nil {
		t.Fatal(err)
	}
	const line = "Designs: `shop invoicing` only (33 catalog patterns); the other designs are not counted."
	if strings.Contains(every.String(), "Designs:") || !strings.Contains(narrowed.String(), line) {
		t.Errorf("WriteMarkdown: a run over every design says\n%s\na narrowed one\n%s\nwant %q in the narrowed one only", every.String(), narrowed.String(), line)
	}
}
