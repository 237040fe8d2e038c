package findings

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
)

// A claim is one finding being written, so that every number in it is
// either the run's own or says what it rests on. Its text comes from say,
// whose format holds words only (no digit) and whose arguments are each a
// name or a fig; mark writes, after a clause, the Mark of the figures
// given since the last one; done writes any left and ends the sentence.
// What breaks that is kept in bad, for the specs, and changes nothing else.
type claim struct {
	b       strings.Builder
	pending []*rules.Source
	bad     []string
}

// name is a word the run gave, digits and all: a key, a target, a
// pattern.
type name string

// fig is a figure as it reads and what it rests on: src, or the run
// itself (own).
type fig struct {
	text string
	src  *rules.Source
	own  bool
}

func (f fig) String() string { return f.text }

// cited is a figure that applies the rules src names. A missing source
// reads as inferred, and is a fault of the claim's writer.
func cited(src *rules.Source, text string) fig {
	return fig{text: text, src: src}
}

// ran is a figure of the run itself: what it measured (units charged by
// AWS's rules, calls, bytes, rates), or what it was asked for.
func ran(text string) fig {
	return fig{text: text, own: true}
}

// say adds text: format's words, with args each a name or a fig.
func (c *claim) say(format string, args ...any) *claim {
	if strings.ContainsAny(format, "0123456789") {
		c.bad = append(c.bad, fmt.Sprintf("a figure in the words %q", format))
	}
	for _, a := range args {
		switch a := a.(type) {
		case name:
		case fig:
			c.figure(a)
		default:
			c.bad = append(c.bad, fmt.Sprintf("%T %v in %q: neither a name nor a figure", a, a, format))
		}
	}
	fmt.Fprintf(&c.b, format, args...)
	return c
}

// figure keeps the source of a figure for the next mark.
func (c *claim) figure(f fig) {
	switch {
	case f.own:
	case f.src == nil:
		c.bad = append(c.bad, fmt.Sprintf("figure %q without a source", f.text))
		c.pending = append(c.pending, &rules.Source{Basis: rules.BasisInferred})
	default:
		for _, id := range f.src.Rules {
			if !rules.Has(id) {
				c.bad = append(c.bad, fmt.Sprintf("figure %q cites %q, which the rules table lacks", f.text, id))
			}
		}
		c.pending = append(c.pending, f.src)
	}
}

// rests adds the sources of a statement that gives no figure of its own.
func (c *claim) rests(src *rules.Source) *claim {
	c.figure(fig{src: src})
	return c
}

// mark writes the mark of the figures since the last one.
func (c *claim) mark() *claim {
	if len(c.pending) == 0 {
		return c
	}
	m := rules.Merged(c.pending...).Mark()
	if m == "" {
		m = "[" + rules.BasisInferred + "]"
	}
	c.b.WriteString(" " + m)
	c.pending = nil
	return c
}

// done marks what is left and ends the sentence.
func (c *claim) done() string {
	c.mark()
	return c.b.String() + "."
}
