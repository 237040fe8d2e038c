package report

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/figure"
)

// HeatRows bounds the partition keys heat.svg shows: the hottest by their
// busiest second.
const HeatRows = 20

// Heat picture geometry, in pixels.
const (
	heatLabel    = 300 // the key names' column
	heatCellMax  = 24  // a second's width, at most
	heatWidth    = 900 // the seconds' columns together, at most
	heatRow      = 18
	heatTop      = 56  // title and axis
	heatMinWidth = 760 // the title and the legend
)

// heatScale colours a second by its share of the per-partition limit
// (3,000 RCU/s and 1,000 WCU/s, the side nearer its limit, times the
// run's scale): pale below 1 %, then yellow to red, and black at or over
// the limit (overLimitNote). Seconds in which the run's emulator
// refused calls on the key have a colour of their own (refusedColor).
var heatScale = []struct {
	upTo  float64
	color string
	label string
}{
	{0.01, "#fff5eb", "< 1%"},
	{0.05, "#fee6ce", "< 5%"},
	{0.10, "#fdd0a2", "< 10%"},
	{0.25, "#fdae6b", "< 25%"},
	{0.50, "#fd8d3c", "< 50%"},
	{0.75, "#e6550d", "< 75%"},
	{1.00, "#a63603", "< 100%"},
	{0, "#000000", "≥ 100%"},
}

// overLimitNote is a second at or over the per-partition limit that the
// run's emulator served: a partition's one-second token bucket, full after
// a quieter second, and the debt of the last call let in (charged when it
// completes) serve up to about twice the limit in one second.
// overLimitOffNote is one in a run without limits, which DynamoDB would
// have throttled past that bucket.
const (
	overLimitNote    = ", over the limit: served from the partition's one-second bucket (full after a quieter second) and the last call's debt"
	overLimitOffNote = ", over the limit: DynamoDB would throttle past the partition's one-second bucket"
)

// refusedColor marks a second in which the emulator refused the key.
const refusedColor = "#54278f"

// heatRowData is one partition key's seconds, as shares of the limit.
type heatRowData struct {
	label   string
	shares  map[int]float64
	refused map[int]int64 // attempts the emulator refused, per second
	peak    float64
}

// WriteHeat writes heat.svg: the hottest partition keys (rows) second by
// second (columns), each cell coloured by the share of the per-partition
// limit the key used that second at the measured rate.
func WriteHeat(w io.Writer, out bench.Outcome) error {
	r := out.Capacity
	scale := r.Scale // the model's, settled
	// The columns are the measured window, the span of every rate in the
	// report; what calls charged in the drain after it is left out, and
	// said so. Columns are whole seconds from the capacity report's start,
	// so a window that begins mid-second ends in one column more.
	seconds := heatSeconds(out)
	rows, drained := heatRows(r.Hot, scale, out.Throttling, r.Start, seconds)
	cell := max(1, min(heatCellMax, heatWidth/seconds))
	width := max(heatLabel+cell*seconds+20, heatMinWidth)
	height := heatTop + heatRow*max(len(rows), 1) + 60
	if drained {
		height += 16 // the line that says the drain is left out
	}

	p := &printer{w: w}
	p.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	p.f(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p.f(`<text x="8" y="20" font-size="14" font-weight="bold">%s: partition heat, share of the per-partition limit each second</text>`+"\n",
		html.EscapeString(StatusOf(out).Title(out)))
	p.f(`<text x="8" y="38" fill="#555555">At the measured %.1f requests/s; a partition serves %s RCU/s and %s WCU/s (limits scale %g), each throttled on its own.</text>`+"\n",
		r.MeasuredRate, figure.Units(ddbitem.PartitionRCU*scale), figure.Units(ddbitem.PartitionWCU*scale), scale)
	for t := 0; t < seconds; t += axisStep(seconds) {
		p.f(`<text x="%d" y="%d" fill="#555555">%ds</text>`+"\n", heatLabel+t*cell, heatTop-4, t)
	}
	if len(rows) == 0 {
		p.f(`<text x="8" y="%d">No partition key took any capacity.</text>`+"\n", heatTop+14)
	}
	for i, row := range rows {
		y := heatTop + i*heatRow
		p.f(`<text x="8" y="%d">%s</text>`+"\n", y+13, html.EscapeString(row.label))
		for t := 0; t < seconds; t++ {
			share, color, note := row.shares[t], heatColor(row.shares[t]), ""
			if n := row.refused[t]; n > 0 {
				color, note = refusedColor, fmt.Sprintf(", %d attempts refused", n)
			} else if share >= 1 {
				note = overLimitOffNote
				if out.Throttling != nil {
					note = overLimitNote
				}
			}
			p.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%ds: %.1f%%%s</title></rect>`+"\n",
				heatLabel+t*cell, y, cell, heatRow-2, color, t, 100*share, note)
		}
	}
	legendY := heatTop + heatRow*max(len(rows), 1) + 20
	if drained {
		p.f(`<text x="8" y="%d" fill="#555555">The %ss measured window; calls that ended in the drain after it are not shown.</text>`+"\n", legendY+34, windowSeconds(out))
	}
	legend := heatScale
	if out.Throttling != nil {
		legend = append(slices.Clone(heatScale), struct {
			upTo  float64
			color string
			label string
		}{0, refusedColor, "refused"})
	}
	for i, s := range legend {
		x := 8 + i*80
		p.f(`<rect x="%d" y="%d" width="14" height="14" fill="%s" stroke="#999999"/>`+"\n", x, legendY, s.color)
		p.f(`<text x="%d" y="%d">%s</text>`+"\n", x+18, legendY+12, html.EscapeString(s.label))
	}
	p.f("</svg>\n")
	return p.err
}

// heatSeconds is how many columns the measured window spans: the whole
// seconds from the capacity report's start that it reaches into.
func heatSeconds(out bench.Outcome) int {
	r := out.Capacity
	if out.Started.IsZero() || r.Start.IsZero() {
		return max(1, int(r.Seconds+0.5))
	}
	end := out.Started.Add(out.CapacitySpan())
	return max(1, int(math.Ceil(end.Sub(r.Start).Seconds())))
}

// windowSeconds is the measured window's length in seconds, to a tenth:
// heatSeconds' columns, which count whole seconds, may be one more.
func windowSeconds(out bench.Outcome) string {
	s := out.Capacity.Seconds
	if !out.Started.IsZero() {
		s = out.CapacitySpan().Seconds()
	}
	return strconv.FormatFloat(math.Round(s*10)/10, 'f', -1, 64)
}

// heatRows picks the keys to show: the HeatRows keys with the busiest
// seconds of the window's first seconds, hottest first, with the attempts
// the emulator refused on each (t, from the capacity report's start).
// drained says whether any key had a charge or a refusal after the window.
func heatRows(hot []capacity.HotKey, scale float64, t *emulate.Throttling, start time.Time, seconds int) (rows []heatRowData, drained bool) {
	refused := map[[2]string]map[int]int64{}
	if t != nil {
		for _, ks := range t.Keys {
			k := [2]string{ks.Target, ks.Key}
			if refused[k] == nil {
				refused[k] = map[int]int64{}
			}
			refused[k][int(ks.Second.Sub(start)/time.Second)] += ks.Refused
		}
	}
	for _, h := range hot {
		row := heatRowData{label: truncate(targetName(h.Target)+"  "+h.Key, 44), shares: map[int]float64{}, refused: map[int]int64{}}
		for sec, n := range refused[[2]string{h.Target, h.Key}] {
			if sec >= seconds {
				drained = true
				continue
			}
			row.refused[sec] = n
			row.peak = 1 // a refused key is as hot as one at its limit
		}
		for _, pt := range h.Series {
			if pt.T >= seconds {
				drained = true
				continue
			}
			share := max(pt.RCU/(ddbitem.PartitionRCU*scale), pt.WCU/(ddbitem.PartitionWCU*scale))
			row.shares[pt.T] += share
			row.peak = max(row.peak, row.shares[pt.T])
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b heatRowData) int { return cmp.Compare(b.peak, a.peak) })
	return rows[:min(len(rows), HeatRows)], drained
}

func heatColor(share float64) string {
	for _, s := range heatScale[:len(heatScale)-1] {
		if share < s.upTo {
			return s.color
		}
	}
	return heatScale[len(heatScale)-1].color
}

// axisStep labels about ten seconds along the axis.
func axisStep(seconds int) int {
	for _, step := range []int{1, 2, 5, 10, 15, 30, 60, 120, 300} {
		if seconds/step <= 10 {
			return step
		}
	}
	return 600
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
