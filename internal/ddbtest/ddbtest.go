// Package ddbtest wires a design's Ginkgo suite to DynamoDB Local: one
// instance for the whole run, one table per parallel process.
package ddbtest

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddblocal"
)

// DefaultEventuallyTimeout bounds how long a spec waits for an index to
// catch up; DynamoDB Local's indexes are current at once.
const DefaultEventuallyTimeout = 5 * time.Second

// Env is what a suite's specs use: the client and this process's own table.
// Its fields are set before the first spec runs.
type Env struct {
	DB    *dynamodb.Client
	Table string
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
	SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
		Expect(d.Validate()).To(Succeed())
		if !patternsWillRun(d) {
			return nil // e.g. make test's --label-filter=unit: no DynamoDB
		}
		endpoint, stop, err := ddblocal.Start(ctx)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stop)
		return []byte(endpoint)
	}, func(ctx SpecContext, endpoint []byte) {
		if len(endpoint) == 0 {
			return
		}
		env.DB = ddblocal.Client(string(endpoint))
		env.Table = designs.TableName(d.Name, fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, env.DB, d.Schema, env.Table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) {
			Expect(designs.DeleteTable(ctx, env.DB, env.Table)).To(Succeed())
		})
	})
	return env
}

// patternsWillRun reports whether the label filter lets any pattern spec of
// the design run. Pattern specs carry the suite's design label, their
// pattern ID and their index, which is how the coverage gate finds them too.
func patternsWillRun(d designs.Design) bool {
	filter := GinkgoLabelFilter()
	if filter == "" {
		return true
	}
	for _, p := range d.Patterns {
		if Label(d.Label(), string(p.ID), p.Index).MatchesLabelFilter(filter) {
			return true
		}
	}
	return false
}
