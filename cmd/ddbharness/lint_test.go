package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// lint -scenario probes the write steps of that scenario alone, on its
// design: the hot items it names come from it, and the design's write
// patterns its mix does not call are listed as not probed.
func TestLintProbesTheScenarioNamed(t *testing.T) {
	var out bytes.Buffer
	if err := lintTo(context.Background(), &out, newFlags("lint", "", ""), []string{"-json", "-scenario", "accountpool/lease-rush"}); err != nil {
		t.Fatal(err)
	}
	var fs []struct {
		Design, Check, Pattern, Scenario, Found string
	}
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		t.Fatal(err)
	}
	hot, unmixed := 0, 0
	for _, f := range fs {
		if f.Design != "accountpool" {
			t.Errorf("%s finding on design %s, want accountpool's only", f.Check, f.Design)
		}
		switch f.Check {
		case "hot-item":
			hot++
			if f.Scenario != "accountpool/lease-rush" {
				t.Errorf("hot item from scenario %q: %s", f.Scenario, f.Found)
			}
		case "not-probed":
			if strings.Contains(f.Found, "no step of accountpool/lease-rush calls it") {
				unmixed++
			}
		}
	}
	// lease-rush calls create and delete lease; add user, add account, mark
	// available and remove account are in lease-churn's mix only.
	if hot == 0 || unmixed != 4 {
		t.Fatalf("lint -scenario accountpool/lease-rush: %d hot items, %d patterns not in its mix, want some and 4:\n%s", hot, unmixed, out.String())
	}
}

// An unknown -scenario, or one of another design than the one named, is
// exit 2 naming the scenarios to pick from.
func TestLintRefusesAnUnknownScenario(t *testing.T) {
	for args, want := range map[string][]string{
		"-scenario nope":                    {`--scenario="nope": no such scenario: pick one of`, "accountpool/lease-rush", "shop/browse"},
		"-scenario shop/browse accountpool": {"--scenario=shop/browse is a scenario of design shop, not of accountpool"},
	} {
		var out bytes.Buffer
		err := lintTo(context.Background(), &out, newFlags("lint", "", ""), strings.Fields(args))
		code, msg := exitCode(context.Background(), err)
		if code != exitBadInput {
			t.Errorf("lint %s: exit %d (%q), want %d", args, code, msg, exitBadInput)
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("lint %s: %q, want it to say %q", args, msg, w)
			}
		}
		if out.Len() > 0 {
			t.Errorf("lint %s printed findings before refusing:\n%s", args, out.String())
		}
	}
}
