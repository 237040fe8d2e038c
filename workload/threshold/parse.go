package threshold

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Example is a threshold to show in an error, next to what went wrong.
const Example = "p99(AP-03) < 20ms; errors < 1%; wcu(AP-05) <= 4; cost <= $1.20/M; headroom >= 3x"

// ParseList parses thresholds separated by semicolons (THRESHOLDS='p99 <
// 20ms; errors < 1%'); empty parts are skipped.
func ParseList(s string) ([]Threshold, error) {
	var out []Threshold
	var errs []error
	for part := range strings.SplitSeq(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		t, err := Parse(part)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, t)
	}
	return out, errors.Join(errs...)
}

// Parse reads one threshold: metric[(pattern)] op value[unit] [abort].
// The error quotes the expression, says what was wanted where and gives
// an example.
func Parse(s string) (Threshold, error) {
	p := &parser{s: s}
	t, err := p.threshold()
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: %w (like %s)", strings.TrimSpace(s), err, Example)
	}
	return t, nil
}

type parser struct {
	s   string
	pos int
}

func (p *parser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// word reads letters and digits (a metric, a unit, abort).
func (p *parser) word() string {
	start := p.pos
	for p.pos < len(p.s) {
		switch c := p.s[p.pos]; {
		case strings.HasPrefix(p.s[p.pos:], "µ"):
			p.pos += len("µ")
		case c < utf8.RuneSelf && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))):
			p.pos++
		default:
			return p.s[start:p.pos]
		}
	}
	return p.s[start:p.pos]
}

func (p *parser) threshold() (Threshold, error) {
	var t Threshold
	p.space()
	t.Metric = strings.ToLower(p.word())
	k, ok := metrics[t.Metric]
	if !ok {
		if t.Metric == "" {
			return t, errors.New("no metric: start with one of " + metricNames())
		}
		return t, fmt.Errorf("unknown metric %q: want one of %s", t.Metric, metricNames())
	}
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		end := strings.IndexByte(p.s[p.pos:], ')')
		if end < 0 {
			return t, errors.New("no ) after the pattern")
		}
		t.Pattern = strings.TrimSpace(p.s[p.pos+1 : p.pos+end])
		if t.Pattern == "" || strings.ContainsAny(t.Pattern, " \t();$%") {
			return t, fmt.Errorf("pattern %q: want a pattern ID of the scenario's design, like AP-03", t.Pattern)
		}
		if k == factor {
			return t, errors.New("headroom is the whole mix's: drop the pattern")
		}
		p.pos += end + 1
	}
	p.space()
	for _, op := range ops {
		if strings.HasPrefix(p.s[p.pos:], op) {
			t.Op = op
			p.pos += len(op)
			break
		}
	}
	if t.Op == "" {
		return t, fmt.Errorf("no comparison after %s: want one of %s", t.Metric, strings.Join(ops, " "))
	}
	p.space()
	if err := p.value(&t, k); err != nil {
		return t, err
	}
	p.space()
	if w := p.word(); w != "" {
		if strings.ToLower(w) != "abort" {
			return t, fmt.Errorf("%q after the value: only abort may follow it", w)
		}
		t.Abort = true
	}
	p.space()
	if p.pos < len(p.s) {
		return t, fmt.Errorf("%q left over at the end", p.s[p.pos:])
	}
	return t, t.canFail(k)
}

// canFail refuses a threshold no run can breach, which would gate
// nothing while it reads as a gate: every figure is 0 or more, and a
// share of calls at most 100%.
func (t Threshold) canFail(k kind) error {
	switch {
	case k == share && t.Value > 100:
		return fmt.Errorf("%s is a share of calls, at most 100%%: %v%% is no share (a gate on it wants a value from 0%% to 100%%, like %s < 1%%)", t.Metric, t.Value, t.Metric)
	case k == share && t.Op == "<=" && t.Value == 100:
		return fmt.Errorf("%s <= 100%% holds on every run, so it gates nothing: give a share below 100%%, like %s < 1%%", t.Metric, t.Metric)
	case t.Op == ">=" && t.Value == 0:
		return fmt.Errorf("%s >= 0 holds on every run (no figure is below 0), so it gates nothing: give a bound a run can breach, or leave it out", t.Metric)
	}
	return nil
}

// value reads the number and its unit, as the metric's kind wants them.
func (p *parser) value(t *Threshold, k kind) error {
	dollar := p.pos < len(p.s) && p.s[p.pos] == '$'
	if dollar {
		p.pos++
	}
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || p.s[p.pos] == '.') {
		p.pos++
	}
	v, err := strconv.ParseFloat(p.s[start:p.pos], 64)
	if err != nil || p.pos == start {
		return fmt.Errorf("no number after %s: want %s", t.Op, wants[k])
	}
	t.Value = v
	switch k {
	case latency:
		t.Unit = p.word()
		if _, ok := nanoseconds[t.Unit]; !ok {
			return fmt.Errorf("unit %q: want %s", t.Unit, wants[k])
		}
	case share:
		if p.pos >= len(p.s) || p.s[p.pos] != '%' {
			return fmt.Errorf("%s is a share of calls: want %s", t.Metric, wants[k])
		}
		p.pos++
		t.Unit = "%"
	case dollars:
		if !dollar || !strings.HasPrefix(p.s[p.pos:], "/M") {
			return fmt.Errorf("cost is dollars per million calls: want %s", wants[k])
		}
		p.pos += len("/M")
		t.Unit = "$/M"
	case factor:
		if p.pos >= len(p.s) || p.s[p.pos] != 'x' {
			return fmt.Errorf("headroom is a factor of the rate: want %s", wants[k])
		}
		p.pos++
		t.Unit = "x"
	case units:
		if u := p.word(); u != "" {
			return fmt.Errorf("unit %q: %s is capacity units per call, a plain number: want %s", u, t.Metric, wants[k])
		}
	}
	if dollar && k != dollars {
		return fmt.Errorf("$ is for cost: want %s", wants[k])
	}
	return nil
}

// wants is what each kind's value looks like.
var wants = map[kind]string{
	latency: "a duration like 20ms (ns, us, ms, s)",
	share:   "a percentage like 1%",
	units:   "units per call like 2.5",
	dollars: "dollars per million calls like $1.20/M",
	factor:  "a factor like 3x",
}

func metricNames() string { return strings.Join(Metrics(), ", ") }
