package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// tablesTimeout bounds listing and describing the tables: an endpoint
// that does not answer by then is not going to.
const tablesTimeout = time.Minute

// runTables lists the harness's tables (named ddbh-*) on the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB, with their age, and deletes them with
// --delete: what a run killed without a chance to clean up (SIGKILL, a
// lost machine) leaves behind. It never touches any other table, and off
// this machine it needs the same opt-in as every run.
func runTables(ctx context.Context, fs *flag.FlagSet, args []string) error {
	del := fs.Bool("delete", false, "delete the listed tables")
	older := fs.Duration("older-than", 0, "only tables created at least this long ago (0 or more; 0: all), to spare a run in progress")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("tables: unexpected argument %q: the command takes only flags (see ddbharness tables -h)", fs.Arg(0))
	}
	if *older < 0 {
		return badInputf("tables: --older-than=%s: want a duration of 0 or more, like 1h", *older)
	}
	env, err := testbed.LoadEnv()
	if err != nil {
		return badInputf("tables: %v", err)
	}
	if err := checkTablesEndpoint(env); err != nil {
		return err
	}
	db := testbed.Client(env.Endpoint)
	listCtx, cancel := context.WithTimeout(ctx, tablesTimeout)
	defer cancel()
	found, err := leftovers(listCtx, db, time.Now().Add(-*older))
	if err != nil {
		return testBedFailed(fmt.Errorf("tables: %s=%s: %w", env.EndpointVar(), testbed.Redact(env.Endpoint), err))
	}
	printTables(os.Stdout, found, time.Now())
	switch {
	case len(found) == 0 && *older > 0:
		fmt.Printf("no %s* table older than %s on %s\n", designs.TablePrefix, *older, testbed.Redact(env.Endpoint))
		return nil
	case len(found) == 0:
		fmt.Printf("no %s* table on %s\n", designs.TablePrefix, testbed.Redact(env.Endpoint))
		return nil
	case !*del:
		fmt.Printf("%d %s* table(s) on %s; delete them with ddbharness tables -delete\n", len(found), designs.TablePrefix, testbed.Redact(env.Endpoint))
		return nil
	}
	var errs []error
	deleted := 0
	for _, t := range found {
		if err := designs.DeleteTable(ctx, db, t.name); err != nil {
			errs = append(errs, err)
			continue
		}
		deleted++
		fmt.Printf("deleted %s\n", t.name)
	}
	fmt.Printf("deleted %d of %d %s* table(s) on %s\n", deleted, len(found), designs.TablePrefix, testbed.Redact(env.Endpoint))
	return errors.Join(errs...)
}

// checkTablesEndpoint refuses an environment tables cannot look at: no
// endpoint set, or one off this machine without the opt-in. A refusal for
// a remote endpoint gives this command's fix; the shared message's are a
// run's ("unset the variable"), which tables needs.
func checkTablesEndpoint(env testbed.Env) error {
	if env.Endpoint == "" {
		return badInputf("tables: %s is not set: set it to the endpoint to look at (an embedded DynamoDB Local keeps nothing once its run ends)", testbed.EnvEndpoint)
	}
	_, err := env.Reach(env.Endpoint, env.EndpointVar())
	var remote *testbed.RemoteError
	switch {
	case errors.As(err, &remote):
		return badInputf("tables: %s=%s is not on this machine, and the harness sends nothing there without %s=1: set it to list (and with -delete delete) the %s* tables there with your AWS credentials",
			env.EndpointVar(), testbed.Redact(env.Endpoint), testbed.EnvAllowRemote, designs.TablePrefix)
	case err != nil:
		return badInputf("tables: %v", err)
	}
	return nil
}

// leftover is one of the harness's tables.
type leftover struct {
	name    string
	created time.Time
	status  string
}

// leftovers lists the tables named ddbh-* created no later than before,
// oldest first.
func leftovers(ctx context.Context, db *dynamodb.Client, before time.Time) ([]leftover, error) {
	var out []leftover
	pages := dynamodb.NewListTablesPaginator(db, &dynamodb.ListTablesInput{})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		for _, name := range page.TableNames {
			if !strings.HasPrefix(name, designs.TablePrefix) {
				continue
			}
			d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err != nil {
				return nil, fmt.Errorf("describe table %s: %w", name, err)
			}
			t := leftover{name: name, created: aws.ToTime(d.Table.CreationDateTime), status: string(d.Table.TableStatus)}
			if t.created.After(before) {
				continue
			}
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b leftover) int { return a.created.Compare(b.created) })
	return out, nil
}

func printTables(w io.Writer, ts []leftover, now time.Time) {
	if len(ts) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tCREATED\tAGE\tSTATUS")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.name, t.created.UTC().Format("2006-01-02 15:04:05 UTC"), now.Sub(t.created).Round(time.Second), t.status)
	}
	tw.Flush()
}
