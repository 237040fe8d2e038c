package deploy_test

import (
	"bufio"
	"crypto/sha256"
	"debug/elf"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"
	"go.yaml.in/yaml/v3"

	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/internal/procgroup"
	"github.com/ddbharness/ddbharness/scenarios"
)

// Paths from this package's folder, where the specs run.
const (
	root       = ".."
	jobFile    = "k8s/bench-job.yaml"
	dockerfile = "Dockerfile"
	ignoreFile = "Dockerfile.dockerignore" // BuildKit's ignore file for this Dockerfile
)

// job is the part of a batch/v1 Job these specs read.
type job struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		BackoffLimit   *int   `yaml:"backoffLimit"`
		ActiveDeadline *int   `yaml:"activeDeadlineSeconds"`
		Template       struct {
			Spec struct {
				RestartPolicy      string      `yaml:"restartPolicy"`
				ServiceAccountName string      `yaml:"serviceAccountName"`
				Containers         []container `yaml:"containers"`
				Volumes            []volume    `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type container struct {
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"env"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []mount `yaml:"volumeMounts"`
}

type volume struct {
	Name     string    `yaml:"name"`
	EmptyDir *struct{} `yaml:"emptyDir"`
}

type mount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
}

// loadJob parses the manifest and returns it with its one container.
func loadJob() (job, container) {
	GinkgoHelper()
	data, err := os.ReadFile(jobFile)
	Expect(err).NotTo(HaveOccurred())
	var j job
	Expect(yaml.Unmarshal(data, &j)).To(Succeed())
	Expect(j.Spec.Template.Spec.Containers).To(HaveLen(1))
	return j, j.Spec.Template.Spec.Containers[0]
}

// env is the container's environment as the kubelet builds it: in order,
// each value expanded with the variables defined before it.
func (c container) env() map[string]string {
	vars := map[string]string{}
	for _, e := range c.Env {
		vars[e.Name] = expand(e.Value, vars)
	}
	return vars
}

// expand is Kubernetes' $(NAME) expansion of env values, command and args
// (k8s.io/kubernetes third_party/forked/golang/expansion): a known NAME
// becomes its value, $$ becomes $, anything else stays as written. The
// specs run the command after it, as the kubelet does, so a shell $(...)
// or $$ that Kubernetes would rewrite shows up.
func expand(s string, vars map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString("$(")
				i++
				continue
			}
			name := s[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// stub stands in for ddbharness: it prints its arguments, one a line, and
// exits with STUB_EXIT; with STUB_READY set, it first creates that file and
// runs until SIGTERM, which it reports.
const stub = `#!/bin/sh
printf '%s\n' "$@"
if [ -n "$STUB_READY" ]; then
	trap 'echo TERM; exit 143' TERM
	touch "$STUB_READY"
	while :; do sleep 0.1; done
fi
exit "${STUB_EXIT:-0}"
`

// startShard runs the container's command as the pod at index would: after
// Kubernetes' expansion, with sh for /busybox/sh, the stub first on PATH,
// reports for /reports, the manifest's env, and extra (NAME=VALUE) last.
func startShard(c container, index int, reports string, extra ...string) *gexec.Session {
	GinkgoHelper()
	Expect(c.Command).To(HaveLen(3))
	Expect(c.Command[:2]).To(Equal([]string{"/busybox/sh", "-c"}))
	Expect(c.Args).To(BeEmpty())
	bin := GinkgoT().TempDir()
	Expect(os.WriteFile(filepath.Join(bin, "ddbharness"), []byte(stub), 0o755)).To(Succeed())

	vars := c.env()
	script := strings.ReplaceAll(expand(c.Command[2], vars), "/reports", reports)
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	for name, v := range vars {
		cmd.Env = append(cmd.Env, name+"="+v)
	}
	// Kubernetes sets JOB_COMPLETION_INDEX in an Indexed Job's pods. No
	// hold after the bench unless a spec asks for one.
	cmd.Env = append(cmd.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(index), "COLLECT_SECONDS=0")
	cmd.Env = append(cmd.Env, extra...) // exec keeps the last of duplicates
	// A group of its own, so that a spec that fails kills the stub too, not
	// only the shell above it (an orphaned stub would loop for ever).
	procgroup.Own(cmd)
	session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() {
		_ = procgroup.Kill(cmd)
		Eventually(session, processWait).Should(gexec.Exit())
	})
	return session
}

// processWait bounds a wait for the pod's shell to start, act or exit: far
// beyond what it takes, so that it holds on a machine loaded 16 deep.
const processWait = time.Minute

// pod picks one of the Job's pods for a spec.
type pod int

const (
	firstPod pod = iota
	lastPod
)

var _ = Describe("the Kubernetes Job", func() {
	var (
		j    job
		c    container
		vars map[string]string
	)
	BeforeEach(func() {
		j, c = loadJob()
		vars = c.env()
	})

	It("runs one pod per shard, all at once, each knowing its index", func() {
		Expect(j.APIVersion).To(Equal("batch/v1"))
		Expect(j.Kind).To(Equal("Job"))
		Expect(j.Spec.CompletionMode).To(Equal("Indexed"))
		shards, err := strconv.Atoi(vars["SHARDS"])
		Expect(err).NotTo(HaveOccurred(), "SHARDS=%q", vars["SHARDS"])
		Expect(j.Spec.Completions).To(HaveValue(Equal(shards)), "completions == SHARDS")
		Expect(j.Spec.Parallelism).To(HaveValue(Equal(shards)), "parallelism == SHARDS")
	})

	It("never runs a failed shard again", func() {
		Expect(j.Spec.BackoffLimit).To(HaveValue(Equal(0)))
		Expect(j.Spec.Template.Spec.RestartPolicy).To(Equal("Never"))
	})

	It("runs the image against real DynamoDB with what a shard needs", func() {
		Expect(c.Image).To(MatchRegexp(`/ddbharness:[^/]+$`))
		Expect(vars).To(HaveKeyWithValue("DDBHARNESS_ALLOW_REMOTE", "1"))
		Expect(vars).To(HaveKeyWithValue("AWS_REGION", Not(BeEmpty())))
		Expect(vars).NotTo(HaveKey("AWS_ENDPOINT_URL_DYNAMODB"), "real DynamoDB is the opt-in with no endpoint")
		for _, name := range []string{"SCENARIO", "MAX_COST", "COLLECT_SECONDS"} {
			Expect(vars).To(HaveKeyWithValue(name, Not(BeEmpty())))
		}
		Expect(vars["RUN"]).To(MatchRegexp(`^[a-z0-9][a-z0-9-]{0,39}$`), "bench's rule for a run name, part of a table name")
		_, err := time.Parse(time.RFC3339, vars["START"])
		Expect(err).NotTo(HaveOccurred(), "START is an RFC 3339 instant")
		Expect(j.Spec.Template.Spec.ServiceAccountName).NotTo(BeEmpty())
		Expect(c.Resources.Requests).To(And(HaveKey("cpu"), HaveKey("memory")), "the scheduler reserves what a shard uses")
		var reports mount
		Expect(c.VolumeMounts).To(ContainElement(HaveField("MountPath", "/reports"), &reports))
		Expect(j.Spec.Template.Spec.Volumes).To(ContainElement(And(
			HaveField("Name", reports.Name), HaveField("EmptyDir", Not(BeNil())))), "/reports is a writable emptyDir")
	})

	It("ends by a deadline that leaves room for the run's own times, and uses no more than it requests", func() {
		sc, ok := scenarios.Find(vars["SCENARIO"])
		Expect(ok).To(BeTrue(), "SCENARIO=%q", vars["SCENARIO"])
		collect, err := strconv.Atoi(vars["COLLECT_SECONDS"])
		Expect(err).NotTo(HaveOccurred())
		// The manifest's own allowances: START up to 10 minutes ahead, 10
		// minutes to pull and seed.
		const lead, seeding = 10 * time.Minute, 10 * time.Minute
		need := lead + seeding + sc.Duration + engine.DefaultDrain + engine.ShardGrace + time.Duration(collect)*time.Second
		Expect(j.Spec.ActiveDeadline).NotTo(BeNil(), "activeDeadlineSeconds: a hung shard must not hold the cluster for ever")
		deadline := time.Duration(*j.Spec.ActiveDeadline) * time.Second
		Expect(deadline).To(BeNumerically(">=", need), "the deadline must cover %s", need)
		Expect(deadline).To(BeNumerically("<=", need+30*time.Minute), "and not much more")
		Expect(c.Resources.Limits).To(Equal(c.Resources.Requests), "limits equal to requests: Guaranteed QoS")
	})

	Describe("its command", func() {
		var reports string
		BeforeEach(func() { reports = GinkgoT().TempDir() })

		DescribeTable("runs bench as the 1-based shard of the pod's completion index",
			func(p pod) {
				shards := vars["SHARDS"]
				index, shard := 0, "1/"+shards // 1/4 as shipped
				if p == lastPod {
					n, err := strconv.Atoi(shards)
					Expect(err).NotTo(HaveOccurred())
					index, shard = n-1, shards+"/"+shards // 4/4 as shipped
				}
				session := startShard(c, index, reports)
				Eventually(session, processWait).Should(gexec.Exit(0))
				Expect(strings.Split(strings.TrimSuffix(string(session.Out.Contents()), "\n"), "\n")).To(Equal([]string{
					"bench", "--shard", shard, "--run", vars["RUN"], "--start", vars["START"], "--out", reports, vars["SCENARIO"],
				}))
			},
			Entry("the first pod, index 0, is shard 1", firstPod),
			Entry("the last pod, index SHARDS-1, is shard SHARDS", lastPod),
		)

		It("fails the pod with the bench's exit status", func() {
			Eventually(startShard(c, 1, reports, "STUB_EXIT=3"), processWait).Should(gexec.Exit(3))
		})

		It("passes SIGTERM on to the bench, and then ends without holding the pod", func() {
			ready := filepath.Join(GinkgoT().TempDir(), "ready")
			session := startShard(c, 0, reports, "STUB_READY="+ready, "COLLECT_SECONDS=60")
			Eventually(ready, processWait).Should(BeAnExistingFile())
			session.Signal(syscall.SIGTERM)
			Eventually(session, processWait).Should(gexec.Exit(143))
			Expect(session.Out).To(gbytes.Say("TERM"))
		})

		It("holds a finished pod for kubectl cp until the reports are collected", func() {
			session := startShard(c, 0, reports, "COLLECT_SECONDS=60")
			Consistently(session, "1500ms").ShouldNot(gexec.Exit())
			Expect(os.WriteFile(filepath.Join(reports, "collected"), nil, 0o644)).To(Succeed())
			Eventually(session, processWait).Should(gexec.Exit(0))
		})
	})
})

var _ = Describe("the image", func() {
	It("is built by go.mod's Go release", func() {
		docker, err := os.ReadFile(dockerfile)
		Expect(err).NotTo(HaveOccurred())
		mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		Expect(err).NotTo(HaveOccurred())
		from := regexp.MustCompile(`(?m)^FROM golang:(\S+)-bookworm AS build$`).FindSubmatch(docker)
		Expect(from).NotTo(BeNil(), "a golang:<version>-bookworm build stage")
		goLine := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
		Expect(goLine).NotTo(BeNil())
		Expect(string(from[1])).To(Equal(string(goLine[1])))
	})

	It("is built by the Makefile's build command", func(ctx SpecContext) {
		Expect(withOut(dockerBuild(), "OUT")).To(Equal(withOut(makeBuild(ctx), "OUT")))
	})

	It("holds the same static binary as make build", func(ctx SpecContext) {
		tmp := GinkgoT().TempDir()
		context := filepath.Join(tmp, "context")
		copyContext(context)
		a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
		goBuild(ctx, dockerBuild(), context, a)
		goBuild(ctx, makeBuild(ctx), root, b)
		Expect(sum(a)).To(Equal(sum(b)), "the image's binary and make build's")

		f, err := elf.Open(a)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		Expect(f.Progs).NotTo(ContainElement(HaveField("Type", elf.PT_INTERP)), "static: distroless static has no libc")
	}, SpecTimeout(5*time.Minute))
})

// dockerBuild is the build stage's go build command, as words.
func dockerBuild() []string {
	GinkgoHelper()
	f, err := os.Open(dockerfile)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var found []string
	var line string
	for s := bufio.NewScanner(f); s.Scan(); {
		line += s.Text()
		if rest, ok := strings.CutSuffix(line, `\`); ok { // continued
			line = rest
			continue
		}
		if rest, ok := strings.CutPrefix(line, "RUN "); ok && strings.Contains(rest, "go build ") {
			Expect(found).To(BeNil(), "one go build in %s", dockerfile)
			found = strings.Fields(rest)
		}
		line = ""
	}
	Expect(found).NotTo(BeNil(), "a RUN ... go build line in %s", dockerfile)
	return found
}

// makeBuild is the build target's go build command as make expands it, as
// words.
func makeBuild(ctx SpecContext) []string {
	GinkgoHelper()
	out, err := exec.CommandContext(ctx, "make", "-C", root, "--no-print-directory", "-n", "build", "GO=go").Output()
	Expect(err).NotTo(HaveOccurred())
	for line := range strings.Lines(string(out)) {
		if f := strings.Fields(line); slices.Contains(f, "build") && slices.Contains(f, "-o") {
			return f
		}
	}
	Fail("no go build in make -n build:\n" + string(out))
	return nil
}

// withOut is words with the value of -o replaced by out.
func withOut(words []string, out string) []string {
	GinkgoHelper()
	i := slices.Index(words, "-o")
	Expect(i).To(BeNumerically(">=", 0), "-o in %q", words)
	Expect(i+1).To(BeNumerically("<", len(words)), "a value after -o in %q", words)
	return slices.Concat(words[:i+1], []string{out}, words[i+2:])
}

// goBuild runs words (leading NAME=VALUE words are its environment) in dir
// with the output path out, for Linux as in the image. This machine's
// GOFLAGS and CGO_ENABLED, from the environment or its go env file, are left
// out: the golang image sets neither, and they would hide a flag the
// command lacks.
func goBuild(ctx SpecContext, words []string, dir, out string) {
	GinkgoHelper()
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "CGO_ENABLED=") || strings.HasPrefix(kv, "GOENV=")
	})
	env = append(env, "GOENV=off", "GOOS=linux")
	for len(words) > 0 && strings.Contains(words[0], "=") {
		env, words = append(env, words[0]), words[1:]
	}
	Expect(words).NotTo(BeEmpty())
	words = withOut(words, out)
	cmd := exec.CommandContext(ctx, words[0], words[1:]...)
	cmd.Dir, cmd.Env = dir, env
	output, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s in %s:\n%s", strings.Join(words, " "), dir, output)
}

// copyContext copies to dst what the build stage's COPY . . gets: the
// repository without the ignore file's patterns, so without Git state, as in
// the image (a binary stamped with Git state would differ from make build's).
func copyContext(dst string) {
	GinkgoHelper()
	data, err := os.ReadFile(ignoreFile)
	Expect(err).NotTo(HaveOccurred())
	var ignore []string
	for line := range strings.Lines(string(data)) {
		if p := strings.TrimSpace(line); p != "" && !strings.HasPrefix(p, "#") {
			Expect(p).NotTo(ContainSubstring("**"), "plain patterns only: this copy matches them with filepath.Match")
			Expect(p).NotTo(HavePrefix("!"), "plain patterns only")
			ignore = append(ignore, p)
		}
	}
	Expect(filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		for _, p := range ignore {
			if ok, _ := filepath.Match(p, filepath.ToSlash(rel)); ok {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})).To(Succeed())
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// sum is the SHA-256 of the file at path.
func sum(path string) [sha256.Size]byte {
	GinkgoHelper()
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return sha256.Sum256(data)
}

// compose is the part of docker-compose.yml these specs read.
type compose struct {
	Services map[string]struct {
		Image       string                               `yaml:"image"`
		Build       struct{ Context, Dockerfile string } `yaml:"build"`
		NetworkMode string                               `yaml:"network_mode"`
		Ports       []string                             `yaml:"ports"`
		Environment map[string]string                    `yaml:"environment"`
		Command     []string                             `yaml:"command"`
		DependsOn   []string                             `yaml:"depends_on"`
	} `yaml:"services"`
}

var _ = Describe("docker-compose.yml's ddbharness-limits", func() {
	It("runs local --limits from this image, in front of the compose file's DynamoDB Local, on loopback", func() {
		b, err := os.ReadFile(filepath.Join(root, "docker-compose.yml"))
		Expect(err).NotTo(HaveOccurred())
		var c compose
		Expect(yaml.Unmarshal(b, &c)).To(Succeed())
		local, limits := c.Services["dynamodb-local"], c.Services["ddbharness-limits"]
		Expect(limits.Build.Dockerfile).To(Equal("deploy/" + dockerfile))
		Expect(filepath.Join(root, limits.Build.Context, limits.Build.Dockerfile)).To(BeAnExistingFile())
		Expect(limits.Command).To(HaveExactElements("local", "--limits", "--limits-scale", "${LIMITS_SCALE:-1}", "--port", "8001", "--report", "/reports"))
		// The endpoint forwards only to a DynamoDB Local on loopback and
		// listens on loopback: the host's network is the one both share.
		Expect(limits.NetworkMode).To(Equal("host"))
		Expect(local.Ports).To(ContainElement("127.0.0.1:8000:8000"))
		Expect(limits.Environment).To(HaveKeyWithValue("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000"))
		Expect(limits.DependsOn).To(ConsistOf("dynamodb-local"))
	})
})
