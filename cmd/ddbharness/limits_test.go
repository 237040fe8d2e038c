package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/failure"
	"github.com/ddbharness/ddbharness/scenarios"
)

// limitsForms are the ways to write --limits, the same in every command:
// alone it is on, so the word after it is no value of its own; on and off
// set it, with = or as the next word, in any case (true and false too, as
// a Go switch takes them). off is whether the limits end off, whatever
// the command's default.
var limitsForms = []struct {
	args []string
	off  bool
}{
	{[]string{"--limits"}, false},
	{[]string{"--limits=on"}, false},
	{[]string{"--limits", "on"}, false},
	{[]string{"-limits", "ON"}, false},
	{[]string{"--limits=TRUE"}, false},
	{[]string{"--limits=off"}, true},
	{[]string{"--limits", "off"}, true},
	{[]string{"--limits=Off"}, true},
	{[]string{"--limits", "FALSE"}, true},
}

// badLimits are values --limits refuses in every command, exit 2, naming
// the values it takes.
var badLimits = [][]string{{"--limits=maybe"}, {"--limits="}, {"--limits=1"}}

// benchPlanOf plans bench as the command line args ask, its reports
// under a temporary folder: every check a run makes before anything starts.
func benchPlanOf(t *testing.T, args ...string) (*benchPlan, error) {
	fs := newFlags("bench", "", "")
	fs.SetOutput(io.Discard)
	return planBench(context.Background(), fs, append([]string{"--out", t.TempDir()}, args...))
}

// bench --limits is a switch as local's is: "bench --limits shop" runs
// scenario shop with the limits on, "--limits off shop" and
// "--limits=off shop" run it with them off, and a value neither on nor off
// is refused before anything starts, naming on and off.
func TestBenchLimitsIsASwitch(t *testing.T) {
	shop, _ := scenarios.Default("shop")
	for _, c := range limitsForms {
		p, err := benchPlanOf(t, append(c.args, "shop")...)
		if err != nil {
			t.Errorf("bench %q: %v", c.args, err)
			continue
		}
		if len(p.runs) != 1 || p.runs[0].Name != shop.Name || p.limits.Off != c.off {
			t.Errorf("bench %q shop: runs %d scenario(s), the first %q, limits off %v; want %s alone, limits off %v", c.args, len(p.runs), p.runs[0].Name, p.limits.Off, shop.Name, c.off)
		}
	}
	if p, err := benchPlanOf(t, "shop"); err != nil || p.limits.Off {
		t.Errorf("bench shop: %v, limits %+v; want them on, the default", err, p.limits)
	}
	for _, args := range badLimits {
		_, err := benchPlanOf(t, append(args, "shop")...)
		wantRefusedNamingOnAndOff(t, "bench", args, err)
	}
}

// local --limits reads as bench's: every form sets the limits as it does
// in bench, the default staying off, and the same values are refused.
func TestLocalLimitsReadsAsBenchs(t *testing.T) {
	plan := func(args []string) (localPlan, error) {
		fs := newFlags("local", "", "")
		fs.SetOutput(io.Discard)
		return planLocal(fs, args)
	}
	for _, c := range limitsForms {
		p, err := plan(c.args)
		if err != nil || p.limits.Off != c.off {
			t.Errorf("local %q: %v, limits off %v; want off %v", c.args, err, p.limits.Off, c.off)
		}
	}
	if p, err := plan(nil); err != nil || !p.limits.Off {
		t.Errorf("local: %v, limits %+v; want them off, the default", err, p.limits)
	}
	if _, err := plan([]string{"--limits", "shop"}); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf(`local --limits shop: %v; want "shop" refused as an argument, --limits being on`, err)
	}
	for _, args := range badLimits {
		_, err := plan(args)
		wantRefusedNamingOnAndOff(t, "local", args, err)
	}
}

// wantRefusedNamingOnAndOff fails unless err is bad input (exit 2) that
// names both values --limits takes and LIMITS, the make variable.
func wantRefusedNamingOnAndOff(t *testing.T, cmd string, args []string, err error) {
	t.Helper()
	if err == nil || !errors.As(err, new(failure.BadInput)) {
		t.Errorf("%s %q: %v; want it refused as bad input (exit 2)", cmd, args, err)
		return
	}
	for _, want := range []string{"want on", "or off", "LIMITS", "-limits"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s %q: %q does not say %q", cmd, args, err, want)
		}
	}
}

// --conflicts is the same kind of switch in bench and local, on when left
// out: "bench --conflicts shop" runs shop with them on, every off form
// turns them off, and a value neither on nor off is refused naming both
// and CONFLICTS.
func TestConflictsIsASwitchAsLimitsIs(t *testing.T) {
	local := func(args ...string) (localPlan, error) {
		fs := newFlags("local", "", "")
		fs.SetOutput(io.Discard)
		return planLocal(fs, append([]string{"--limits"}, args...))
	}
	for _, c := range limitsForms {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.Replace(a, "limits", "conflicts", 1)
		}
		p, err := benchPlanOf(t, append(args, "shop")...)
		if err != nil || len(p.runs) != 1 || p.limits.NoConflicts != c.off {
			t.Errorf("bench %q shop: %v; want shop alone, conflicts off %v", args, err, c.off)
		}
		if p, err := local(args...); err != nil || p.limits.NoConflicts != c.off {
			t.Errorf("local --limits %q: %v; want conflicts off %v", args, err, c.off)
		}
	}
	if p, err := benchPlanOf(t, "shop"); err != nil || p.limits.NoConflicts {
		t.Errorf("bench shop: %v, limits %+v; want conflicts on, the default", err, p.limits)
	}
	for _, bad := range []string{"--conflicts=sometimes", "--conflicts="} {
		_, errBench := benchPlanOf(t, bad, "shop")
		_, errLocal := local(bad)
		for _, err := range []error{errBench, errLocal} {
			if err == nil || !errors.As(err, new(failure.BadInput)) || !strings.Contains(err.Error(), "want on or off (CONFLICTS=on or CONFLICTS=off)") {
				t.Errorf("%s: %v; want it refused as bad input, naming on, off and CONFLICTS", bad, err)
			}
		}
	}
}
