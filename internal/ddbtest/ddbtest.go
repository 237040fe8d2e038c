// Package ddbtest wires a design's Ginkgo suite to DynamoDB Local: one
// instance for the whole run, one table per parallel process.
package ddbtest

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// DefaultEventuallyTimeout bounds how long a spec waits for an index to
// catch up; DynamoDB Local's indexes are current at once.
const DefaultEventuallyTimeout = 5 * time.Second

// Env is what a suite's specs use: the clients and this process's own
// table. Its fields are set before the first spec runs.
type Env struct {
	// DB reaches DynamoDB as it is: the specs' own reads and writes of
	// the table, its creation and deletion.
	DB *dynamodb.Client
	// Patterns is the client the design's patterns are given: DB on a
	// quiet run; under hostile verify, the same DynamoDB behind the
	// process's fault rules (Faults).
	Patterns *dynamodb.Client
	Table    string

	faults *Faults // nil on a quiet run
}

// Setup registers the suite's SynchronizedBeforeSuite: process 1 starts (or
// finds, through AWS_ENDPOINT_URL_DYNAMODB) DynamoDB Local; every process
// creates its own table for the design and deletes it when the suite ends.
// Call it once, at package level in the suite file.
//
// It also bounds Eventually: GSI reads retry in Eventually(ctx, ...), which
// would otherwise wait for the spec context to end, so an item that never
// shows would hang the suite instead of failing it.
func Setup(d designs.Design) *Env {
	EnforceDefaultTimeoutsWhenUsingContexts()
	SetDefaultEventuallyTimeout(DefaultEventuallyTimeout)
	env := &Env{}
	registerHostile(env)
	_ = Local(func(ctx SpecContext, db *dynamodb.Client) {
		env.DB, env.Patterns = db, db
		if env.faults = hostile(endpointOf(db)); env.faults != nil {
			env.Patterns = testbed.Client(env.faults.Endpoint, hostileRetries)
		}
		env.Table = designs.TableName(d.Name, fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, env.DB, d.Schema, env.Table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) {
			Expect(designs.DeleteTable(ctx, env.DB, env.Table)).To(Succeed())
		})
	}, func() bool { Expect(d.Validate()).To(Succeed()); return WillRun(Needs(d)...) })
	return env
}

// endpointOf is the endpoint db sends its calls to.
func endpointOf(db *dynamodb.Client) string {
	return aws.ToString(db.Options().BaseEndpoint)
}

// Needs is the labels of d's pattern specs, each with the design's: Setup
// starts DynamoDB when the label filter lets one of them run.
func Needs(d designs.Design) []Labels {
	var needs []Labels
	for _, p := range d.Patterns {
		needs = append(needs, Label(d.Label(), string(p.ID), p.Index))
	}
	return needs
}

// Local registers a suite's one SynchronizedBeforeSuite: when needed says a
// spec that needs DynamoDB will run, process 1 starts DynamoDB Local (or
// finds the one make verify started, DDBHARNESS_RUN_ENDPOINT, or the
// user's, AWS_ENDPOINT_URL_DYNAMODB) and stops it when the suite ends, and
// every process calls ready with its own client. Otherwise (make test's
// --label-filter=unit) nothing starts and ready is not called. When the
// endpoint is unusable the suite fails at once with testbed's sentence,
// which names the endpoint, where it came from and the cause (a run's
// DynamoDB Local that has died refuses connections: seconds, not the
// ready timeout).
func Local(ready func(ctx SpecContext, db *dynamodb.Client), needed func() bool) bool {
	return SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
		if !needed() {
			return nil
		}
		srv, err := testbed.Start(ctx)
		if err != nil {
			Fail("no DynamoDB for this suite: " + err.Error())
		}
		DeferCleanup(srv.Stop)
		return []byte(srv.Endpoint)
	}, func(ctx SpecContext, endpoint []byte) {
		if len(endpoint) > 0 {
			ready(ctx, testbed.Client(string(endpoint)))
		}
	})
}

// WillRun reports whether the label filter lets a spec carrying any of
// these label sets run (the suite's own labels count too: pass them in).
func WillRun(needs ...Labels) bool {
	filter := GinkgoLabelFilter()
	if filter == "" {
		return true
	}
	for _, l := range needs {
		if l.MatchesLabelFilter(filter) {
			return true
		}
	}
	return false
}
