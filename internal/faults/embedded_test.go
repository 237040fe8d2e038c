package faults_test

import (
	"errors"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// jvmWait bounds a wait for a JVM to start answering or to end: far beyond
// what it takes, so that it holds on a machine loaded 16 deep.
const jvmWait = time.Minute

// embedded starts a DynamoDB Local of this process's own, whatever
// endpoint the surrounding run was given, stopped when the spec ends.
func embedded(ctx SpecContext) *testbed.Server {
	GinkgoHelper()
	env, err := testbed.LoadEnv()
	Expect(err).NotTo(HaveOccurred())
	srv, err := testbed.Start(ctx, testbed.FromEnv(testbed.Env{CacheDir: env.CacheDir}), testbed.Log(GinkgoWriter))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(srv.Stop)
	Expect(srv.Embedded()).To(BeTrue())
	return srv
}

// sharedLocal is this process's DynamoDB Local for the specs that need
// only an endpoint (each on tables of its own, none killing it or
// counting every table): the first of them starts it and the suite stops
// it at its end, since a JVM's start is most of such a spec's time. Specs of one
// Ginkgo process run one after another, so none sees another's calls.
var sharedLocal *testbed.Server

// shared is the endpoint of this process's shared DynamoDB Local, started
// if it is not running.
func shared(ctx SpecContext) string {
	GinkgoHelper()
	if sharedLocal != nil {
		select {
		case <-sharedLocal.Done(): // ended under an earlier spec: start another
			sharedLocal = nil
		default:
			return sharedLocal.Endpoint
		}
	}
	env, err := testbed.LoadEnv()
	Expect(err).NotTo(HaveOccurred())
	// Bounded as ddbharness local's start was in the specs that each
	// started one: the first spec on a loaded machine waits for the JVM.
	srv, err := testbed.Start(ctx, testbed.FromEnv(testbed.Env{CacheDir: env.CacheDir}), testbed.Log(GinkgoWriter), testbed.ReadyTimeout(3*jvmWait))
	Expect(err).NotTo(HaveOccurred())
	Expect(srv.Embedded()).To(BeTrue())
	sharedLocal = srv
	return srv.Endpoint
}

// killJava kills with SIGKILL the JVM this process started for the
// DynamoDB Local at srv, as the kernel's OOM killer or a user would: the
// one under this process that is not among others (those it had before
// srv started, the shared one's).
func killJava(srv *testbed.Server, others []int) {
	GinkgoHelper()
	jvms := slices.DeleteFunc(javaUnder(os.Getpid()), func(pid int) bool { return slices.Contains(others, pid) })
	Expect(jvms).To(HaveLen(1), "one JVM of this process serves %s", srv.Endpoint)
	Expect(syscall.Kill(jvms[0], syscall.SIGKILL)).To(Succeed())
}

var _ = Describe("an embedded DynamoDB Local", Label("faults"), func() {
	It("starts on a free port, answers, and leaves no JVM behind", func(ctx SpecContext) {
		others := javaUnder(os.Getpid()) // the shared DynamoDB Local's, if an earlier spec started it
		srv := embedded(ctx)
		endpoint := srv.Endpoint
		_, err := testbed.Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())

		By("using it as a given endpoint: nothing new starts, and releasing it stops nothing")
		given, err := testbed.Start(ctx, testbed.FromEnv(testbed.Env{Endpoint: endpoint}))
		Expect(err).NotTo(HaveOccurred())
		Expect(given.Endpoint).To(Equal(endpoint))
		Expect(given.Embedded()).To(BeFalse())
		given.Stop()
		_, err = testbed.Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())

		srv.Stop()
		Eventually(srv.Done(), jvmWait).Should(BeClosed())
		Expect(srv.Exit()).To(Succeed(), "a stop asked for is not an unexpected exit")
		Expect(javaUnder(os.Getpid())).To(ConsistOf(others), "a JVM outlived Stop")
		probe := testbed.Client(endpoint, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		_, err = probe.ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).To(HaveOccurred(), "the JVM still answers after stop")
	}, SpecTimeout(3*jvmWait))

	It("says when its JVM is killed: Done closes, Exit names the signal and carries its last lines", func(ctx SpecContext) {
		others := javaUnder(os.Getpid())
		srv := embedded(ctx)
		Expect(srv.Exit()).To(Succeed(), "nothing to say while it runs")
		Expect(srv.Done()).NotTo(BeClosed())

		killJava(srv, others)
		Eventually(srv.Done(), jvmWait).Should(BeClosed())
		var exit *testbed.ExitError
		Expect(errors.As(srv.Exit(), &exit)).To(BeTrue(), "an exit nobody asked for is reported")
		Expect(exit.State).To(Equal("signal: killed"))
		Expect(exit.Endpoint).To(Equal(srv.Endpoint))
		Expect(exit.Logs).To(ContainSubstring("Initializing DynamoDB Local"))
		Expect(exit.Error()).To(And(ContainSubstring("signal: killed"), ContainSubstring("its last lines")))
	}, SpecTimeout(3*jvmWait))
})
