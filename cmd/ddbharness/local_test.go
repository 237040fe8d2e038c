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
	badRules := filepath.Join(dir, "bad.faults")
	if err := os.WriteFile(badRules, []byte("# aimed at one key\nop=GetItem key=PK:A first=1 error=ThrottlingException\nop=GetItem error=TransactionConflict\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.faults")
	if err := os.WriteFile(huge, make([]byte, 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fault", "op=GetItem error=Boom"}, `--fault "op=GetItem error=Boom": error=Boom is not a fault: want one of ThrottlingException`},
		{[]string{"--limits", "--fault", "every=2 first=1 error=InternalServerError"}, "keep one"},
		{[]string{"--faults", badRules}, `bad.faults:3: rule "op=GetItem error=TransactionConflict": error=TransactionConflict cannot happen to a GetItem`},
		{[]string{"--faults", dir}, "--faults=" + dir + " (FAULTS)"},
		{[]string{"--faults", huge}, "is over 1048576 bytes"},
		{[]string{"--faults", filepath.Join(dir, "missing")}, "name a readable file of rules"},
		{[]string{"--fault", "latency=5ms", "--limits-scale=0.5"}, "[--limits-scale] apply to the limits: add --limits"},
		{[]string{"--fault", "latency=5ms", "--port=70000"}, "--port=70000 (PORT): want a TCP port"},
		{[]string{"--limits", "--limits-scale=0"}, "--limits-scale=0 (LIMITS_SCALE): want a factor above 0"},
		{[]string{"--limits=maybe"}, `"maybe" for -limits: want on or off (LIMITS=on or LIMITS=off)`},
		{[]string{"--limits", "--conflicts=sometimes"}, `"sometimes" for -conflicts: want on or off (CONFLICTS=on or CONFLICTS=off)`},
		{[]string{"--limits", "--port=70000"}, "--port=70000 (PORT): want a TCP port"},
		{[]string{"--limits", "--port=" + port}, "cannot listen on 127.0.0.1:" + port},
		{[]string{"--port=8001"}, "apply to the endpoint --limits or --fault serves: add --limits"},
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
