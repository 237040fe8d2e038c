package cost

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ddbharness/ddbharness/internal/figure"
)

// writeTable renders e as a table aligned with spaces: what, units (the
// number right-aligned, its unit after it), unit price and dollars; then
// the total and the basis.
func writeTable(w io.Writer, e Estimate) error {
	rows := [][5]string{{"what", "units", "", "unit price", "dollars"}}
	for _, l := range e.Lines {
		rows = append(rows, [5]string{l.What, amount(l.Units), l.Unit, unitPrice(l.Price, l.Unit), dollars(l.Dollars)})
	}
	rows = append(rows, [5]string{"total", "", "", "", dollars(e.Total)})
	var width [5]int
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		line := fmt.Sprintf("%-*s  %*s %-*s  %*s  %*s", width[0], row[0], width[1], row[1], width[2], row[2], width[3], row[3], width[4], row[4])
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString(e.Basis + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// unitPrice renders a price per unit; request unit prices, fractions of a
// millionth of a dollar, per million.
func unitPrice(p float64, unit string) string {
	switch {
	case p == 0:
		return "included"
	case p < 1e-4:
		return fmt.Sprintf("$%.6g per million %s", p*1e6, unit)
	}
	return fmt.Sprintf("$%.6g per %s", p, unit)
}

// dollars renders an amount to the cent, or to a hundredth of a cent below
// a dollar: a short run costs fractions of a cent.
func dollars(d float64) string {
	switch {
	case d == 0:
		return "$0"
	case d < 0.00005:
		return "<$0.0001"
	case d < 1:
		return fmt.Sprintf("$%.4f", d)
	}
	return "$" + figure.Group(fmt.Sprintf("%.2f", d))
}

// amount renders a number of units: whole ones grouped by thousands (one
// decimal when it has one), three significant digits below one.
func amount(u float64) string {
	switch {
	case u == 0:
		return "0"
	case u < 1:
		return fmt.Sprintf("%.3g", u)
	}
	return figure.Group(strings.TrimSuffix(fmt.Sprintf("%.1f", u), ".0"))
}
