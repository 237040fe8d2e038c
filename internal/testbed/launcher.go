package testbed

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// launcherSource starts DynamoDB Local bound to 127.0.0.1 (it has no
// option for that); see the file for how.
//
//go:embed LoopbackLauncher.java
var launcherSource []byte

const launcherClass = "LoopbackLauncher"

// launchArgs returns java's arguments before DynamoDB Local's own: through
// the loopback launcher when this Java can compile it (once, into the
// cache, with javac; else at each start from source, which needs the
// jdk.compiler module), otherwise the plain jar, which listens on every
// interface, said on log. cleanup removes what only this start needed.
func launchArgs(ctx context.Context, java string, dist Dist, cacheDir string, log io.Writer) (args []string, loopbackOnly bool, cleanup func()) {
	base := append([]string{"-Djava.library.path=" + dist.Lib, "-Xss1m"}, jitArgs(os.Getenv)...)
	cleanup = func() {}
	if dir, err := compiledLauncher(ctx, cacheDir); err == nil {
		return append(base, "-cp", dist.Jar+string(os.PathListSeparator)+dir, launcherClass), true, cleanup
	}
	if hasCompiler(ctx, java) {
		tmp, err := os.MkdirTemp("", "ddbharness-launcher-*")
		if err == nil {
			src := filepath.Join(tmp, launcherClass+".java")
			if err = os.WriteFile(src, launcherSource, 0o644); err == nil {
				return append(base, "-cp", dist.Jar, src), true, func() { os.RemoveAll(tmp) }
			}
			os.RemoveAll(tmp)
		}
	}
	fmt.Fprintf(log, "ddblocal: this Java cannot compile the launcher that binds DynamoDB Local to 127.0.0.1 (no javac, no jdk.compiler module): "+
		"it listens on every interface while it runs. Install a full JDK (Debian: apt-get install openjdk-17-jdk-headless) to keep it on loopback\n")
	return append(base, "-jar", dist.Jar), false, cleanup
}

// jitArgs keeps DynamoDB Local's JVM to its first JIT compiler (C1),
// unless the user's JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS choose the JIT:
// a harness's Local lives seconds to minutes, and the optimising compiler
// (C2) spends more CPU compiling than its faster code saves in that time
// (docs/performance.md: a CI baseline check, a verify and a bench, each
// with and without).
func jitArgs(getenv func(string) string) []string {
	for _, v := range []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"} {
		if strings.Contains(getenv(v), "TieredStopAtLevel") || strings.Contains(getenv(v), "TieredCompilation") {
			return nil
		}
	}
	return []string{"-XX:TieredStopAtLevel=1"}
}

// compiledLauncher returns a folder holding the launcher's class, compiled
// once per source version into cacheDir with javac.
func compiledLauncher(ctx context.Context, cacheDir string) (string, error) {
	sum := sha256.Sum256(launcherSource)
	dir := filepath.Join(cacheDir, "launcher-"+hex.EncodeToString(sum[:6]))
	if _, err := os.Stat(filepath.Join(dir, launcherClass+".class")); err == nil {
		return dir, nil
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cacheDir, ".launcher-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, launcherClass+".java")
	if err := os.WriteFile(src, launcherSource, 0o644); err != nil {
		return "", err
	}
	if out, err := exec.CommandContext(ctx, javac, "--release", "17", "-d", tmp, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("javac: %w: %s", err, bytes.TrimSpace(out))
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have compiled it first.
		if _, serr := os.Stat(filepath.Join(dir, launcherClass+".class")); serr != nil {
			return "", err
		}
	}
	return dir, nil
}

var compilers sync.Map // java path → bool

// hasCompiler reports whether java can run a program from source.
func hasCompiler(ctx context.Context, java string) bool {
	if v, ok := compilers.Load(java); ok {
		return v.(bool)
	}
	out, err := exec.CommandContext(ctx, java, "--list-modules").Output()
	ok := err == nil && strings.Contains(string(out), "jdk.compiler@")
	compilers.Store(java, ok)
	return ok
}
