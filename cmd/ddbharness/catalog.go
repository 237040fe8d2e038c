package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
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

// local runs DynamoDB Local until interrupted, for people who want one
// instance across several commands. It listens on 127.0.0.1 only, when
// this Java can build the loopback launcher (it says so).
func local(ctx context.Context) error {
	srv, err := startDynamo(ctx)
	if err != nil {
		return err
	}
	defer srv.Stop()
	where := ""
	if srv.LoopbackOnly {
		where = " (this machine only)"
	}
	fmt.Fprintf(os.Stderr, "DynamoDB Local is ready on %s%s. In another shell:\n  export %s=%s\nCtrl-C stops it.\n",
		srv.Endpoint, where, ddblocal.EnvEndpoint, srv.Endpoint)
	select {
	case <-ctx.Done():
		return nil
	case <-srv.Done():
		return testBedFailed(srv.Exit())
	}
}
