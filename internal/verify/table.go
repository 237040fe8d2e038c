package verify

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// WriteText prints the coverage table for a terminal.
func (c Coverage) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DESIGN\tPATTERN\tNAME\tINDEX\tOPERATION\tPASSED\tFAILED\tSKIPPED\t")
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", r.Design, r.Pattern.ID, r.Pattern.Name,
			r.Pattern.Index, r.Pattern.Op, r.Passed, r.Failed, r.Skipped, mark(r.Cell))
	}
	return tw.Flush()
}

// WriteMarkdown writes the summary kept under reports/.
func (c Coverage) WriteMarkdown(w io.Writer, endpoint string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# make verify\n\nEndpoint: `%s`\n\n", testbed.Redact(endpoint))
	fmt.Fprintf(&b, "Specs: %d passed, %d failed, %d skipped.\n\n", c.Totals.Passed, c.Totals.Failed, c.Totals.Skipped)
	if len(c.Designs) > 0 {
		fmt.Fprintf(&b, "Designs: `%s` only (%d catalog patterns); the other designs are not counted.\n\n", strings.Join(c.Designs, " "), c.Catalog)
	}
	if c.Filter != "" {
		fmt.Fprintf(&b, "Label filter: `%s`, which selects %d of %d catalog patterns; the gate counts those only.\n\n", c.Filter, len(c.Rows), c.Catalog)
	}
	b.WriteString("| Design | Pattern | Name | Index | Operation | Passed | Failed | Skipped | |\n")
	b.WriteString("|---|---|---|---|---|---:|---:|---:|---|\n")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %d | %d | %s |\n", r.Design, r.Pattern.ID, r.Pattern.Name,
			r.Pattern.Index, r.Pattern.Op, r.Passed, r.Failed, r.Skipped, mark(r.Cell))
	}
	if len(c.NotRun) > 0 {
		b.WriteString("\n## Suites that ran no spec\n\n")
		for _, n := range c.NotRun {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	if gaps := c.Gaps(); len(gaps) > 0 {
		b.WriteString("\n## Gaps\n\n")
		for _, g := range gaps {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	if len(c.Unreached) > 0 {
		b.WriteString("\n## Faults no spec of the pattern met (hostile verify)\n\n")
		for _, u := range c.Unreached {
			fmt.Fprintf(&b, "- %s\n", u)
		}
	}
	if len(c.Stray) > 0 {
		b.WriteString("\n## Labels that name no catalog pattern\n\n")
		for _, s := range c.Stray {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mark(c Cell) string {
	switch {
	case c.Failed > 0:
		return "FAIL"
	case c.Passed == 0:
		return "GAP"
	default:
		return "ok"
	}
}
