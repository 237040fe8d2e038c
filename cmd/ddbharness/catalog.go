package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ddbharness/ddbharness/designs/all"
)

// catalog prints every pattern of every design.
func catalog(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DESIGN\tPATTERN\tNAME\tOPERATION\tINDEX")
	for _, d := range all.Designs {
		if err := d.Validate(); err != nil {
			return err
		}
		for _, p := range d.Patterns {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Name, p.ID, p.Name, p.Op, p.Index)
		}
	}
	return tw.Flush()
}
