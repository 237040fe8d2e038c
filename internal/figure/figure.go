// Package figure writes numbers for people the same way everywhere they are
// shown: the bench reports, the lint and the cost gate. Thousands are
// grouped with commas; sizes are in binary units, as DynamoDB's limits are.
package figure

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Group puts thousands separators in the whole part of a decimal text,
// keeping its sign and fraction: "-1234567.5" is "-1,234,567.5".
func Group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if frac != "" {
		frac = "." + frac
	}
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return sign + whole + frac
}

// Number is what Thousands and Bytes take.
type Number interface {
	~int | ~int64 | ~float64
}

// Thousands is v rounded to a whole number, grouped: "12,345".
func Thousands[N Number](v N) string {
	return Group(strconv.FormatFloat(math.Round(float64(v)), 'f', 0, 64))
}

// Count is n things, grouped: "1 table", "12,345 items"; many is the
// plural of one.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Units is a rate or a count of capacity units: whole and grouped from a
// thousand up, three significant digits below, never with an exponent.
func Units(v float64) string {
	if math.Abs(v) >= 999.5 { // rounds to a thousand or more
		return Thousands(v)
	}
	// Three significant digits, written without an exponent (1e-05).
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Bytes is a size in B, KB, MB or GB (binary units), to three significant
// digits: a figure that would round to 1000 of a unit is given in the
// next, and GB grow past 999 without an exponent.
func Bytes[N ~int | ~int64](n N) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/(1<<10), 0
	for unit < len(byteUnits)-1 && v >= 999.5 {
		v, unit = v/(1<<10), unit+1
	}
	if v >= 999.5 {
		return fmt.Sprintf("%.0f %s", v, byteUnits[unit])
	}
	return fmt.Sprintf("%.3g %s", v, byteUnits[unit])
}

var byteUnits = []string{"KB", "MB", "GB"}
