package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/failure"
)

// Bad flags of local are refused before DynamoDB Local starts, naming the
// value and the fix.
func TestLocalRefusesBadFlagsBeforeStarting(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := strconv.Itoa(busy.Addr().(*net.TCPAddr).Port)
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere", "at-all"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--limits", "--limits-scale=0"}, "--limits-scale=0 (LIMITS_SCALE): want a factor above 0"},
		{[]string{"--limits=maybe"}, `--limits="maybe" (LIMITS): want on`},
		{[]string{"--limits", "--conflicts=sometimes"}, `--conflicts="sometimes" (CONFLICTS)`},
		{[]string{"--limits", "--port=70000"}, "--port=70000 (PORT): want a TCP port"},
		{[]string{"--limits", "--port=" + port}, "cannot listen on 127.0.0.1:" + port},
		{[]string{"--port=8001"}, "apply to the endpoint --limits serves: add --limits"},
		{[]string{"--limits=off", "--limits-scale=0.5"}, "[--limits-scale] apply to the endpoint"},
	} {
		fs := newFlags("local", "", "")
		fs.SetOutput(io.Discard)
		err := runLocal(context.Background(), fs, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
			continue
		}
		if !errors.As(err, new(failure.BadInput)) {
			t.Errorf("%v: %v is not bad input (exit 2)", c.args, err)
		}
	}
}
