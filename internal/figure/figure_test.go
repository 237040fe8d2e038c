package figure_test

import (
	"testing"

	"github.com/ddbharness/ddbharness/internal/figure"
)

func TestFigures(t *testing.T) {
	for _, c := range []struct{ name, got, want string }{
		{"Group of a whole number", figure.Group("1234567"), "1,234,567"},
		{"Group of a negative with a fraction", figure.Group("-1234567.50"), "-1,234,567.50"},
		{"Group below a thousand", figure.Group("999"), "999"},
		{"Thousands rounds", figure.Thousands(12344.5), "12,345"},
		{"Thousands of a negative", figure.Thousands(-4321), "-4,321"},
		{"Units from a thousand", figure.Units(3000), "3,000"},
		{"Units below", figure.Units(12.345), "12.3"},
		{"Units of a small rate", figure.Units(0.5), "0.5"},
		{"Units that round to a thousand", figure.Units(999.6), "1,000"},
		{"Units too small for 3 digits before the exponent", figure.Units(0.0000123), "0.0000123"},
		{"Units of a negative rate", figure.Units(-42.42), "-42.4"},
		{"Bytes", figure.Bytes(512), "512 B"},
		{"KB", figure.Bytes(400 << 10), "400 KB"},
		{"MB", figure.Bytes(1536 << 10), "1.5 MB"},
		{"GB", figure.Bytes(10 << 30), "10 GB"},
		{"KB that round to 1000", figure.Bytes(1_040_000), "0.992 MB"},
		{"MB that round to 1000", figure.Bytes(1023 << 20), "0.999 GB"},
		{"GB past 999", figure.Bytes(2000 << 30), "2000 GB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 entities"}, {1, "1 entity"}, {12345, "12,345 entities"}} {
		if got := figure.Count(c.n, "entity", "entities"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
