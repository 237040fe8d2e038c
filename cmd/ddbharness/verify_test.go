package main

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

func TestCheckGinkgoFlags(t *testing.T) {
	cases := []struct {
		args       []string
		wantFilter string
		wantNames  []string
		wantErr    string // "" for none; "help" for flag.ErrHelp
	}{
		{args: nil},
		{args: []string{"--label-filter=design:shop && AP-03", "-v"}, wantFilter: "design:shop && AP-03"},
		{args: []string{"-label-filter", "AP-01 || AP-02"}, wantFilter: "AP-01 || AP-02"},
		{args: []string{"--label-filter=AP-03", "shop", "invoicing"}, wantFilter: "AP-03", wantNames: []string{"shop", "invoicing"}},
		{args: []string{"./designs/shop"}, wantNames: []string{"./designs/shop"}}, // newScope refuses it
		{args: []string{"--bogus-flag"}, wantErr: "flag provided but not defined: -bogus-flag"},
		{args: []string{"--label-filter=design:shop &&"}, wantErr: "Syntax Error Parsing Label Filter: Unexpected EOF"},
		{args: []string{"--output-dir=/tmp"}, wantErr: "verify's own"},
		{args: []string{"--focus-file=:x"}, wantErr: "verify:"},
		{args: []string{"-h"}, wantErr: "help"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			filter, names, err := checkGinkgoFlags(c.args)
			var bad badInput
			switch {
			case c.wantErr == "help":
				if !errors.Is(err, flag.ErrHelp) {
					t.Errorf("checkGinkgoFlags(%q) error = %v, want flag.ErrHelp", c.args, err)
				}
			case c.wantErr == "" && err != nil:
				t.Errorf("checkGinkgoFlags(%q) error = %v, want none", c.args, err)
			case c.wantErr != "" && (!errors.As(err, &bad) || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("checkGinkgoFlags(%q) error = %v, want bad input saying %q", c.args, err, c.wantErr)
			case c.wantErr == "" && (filter != c.wantFilter || !slices.Equal(names, c.wantNames)):
				t.Errorf("checkGinkgoFlags(%q) = %q, %q; want %q, %q", c.args, filter, names, c.wantFilter, c.wantNames)
			}
			if err != nil && strings.Contains(err.Error(), "\x1b[") {
				t.Errorf("checkGinkgoFlags(%q) error has terminal colours: %q", c.args, err)
			}
		})
	}
}

// TestNarrowedFilterComesLast: verify.Run appends the narrowed filter
// (for DESIGN='shop invoicing' under AP-03, as verify's own tests check)
// after the user's flags, which ginkgoFlags keeps without the design names.
func TestNarrowedFilterComesLast(t *testing.T) {
	const narrowed = "(design:shop || design:invoicing) && (AP-03)"
	// verify appends the narrowed filter after the user's flags: ginkgo's
	// flags keep the last value, so the narrowed one is what runs.
	args := ginkgoFlags([]string{"--label-filter=AP-03", "-v", "--", "shop"}, []string{"shop"})
	if !slices.Equal(args, []string{"--label-filter=AP-03", "-v"}) {
		t.Errorf("ginkgoFlags(...) = %q, want the flags without -- and the name", args)
	}
	filter, _, err := checkGinkgoFlags(append(args, "--label-filter="+narrowed))
	if err != nil || filter != narrowed {
		t.Errorf("ginkgo's flags with the narrowed filter last: filter %q, %v; want %q", filter, err, narrowed)
	}
}

func TestOwnFlags(t *testing.T) {
	cases := []struct {
		args, want []string
		own        verifyFlags
	}{
		{args: nil},
		{args: []string{"--hostile"}, own: verifyFlags{hostile: true}},
		{args: []string{"--race"}, own: verifyFlags{race: true}},
		{args: []string{"-hostile", "--label-filter=AP-05", "-race", "invoicing"}, want: []string{"--label-filter=AP-05", "invoicing"}, own: verifyFlags{hostile: true, race: true}},
		{args: []string{"--label-filter=AP-05", "shop"}, want: []string{"--label-filter=AP-05", "shop"}},
		{args: []string{"--", "--hostile", "--race"}, want: []string{"--", "--hostile", "--race"}}, // after --, names, which newScope refuses
		{args: []string{"--race=true", "-hostile=1", "-v"}, want: []string{"-v"}, own: verifyFlags{hostile: true, race: true}},
		{args: []string{"--race", "--race=false", "--hostile=false"}},
		{args: []string{"--racer", "hostile"}, want: []string{"--racer", "hostile"}}, // not verify's: ginkgo's flags and names check them
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got, own, err := ownFlags(c.args)
			if err != nil || own != c.own || !slices.Equal(got, c.want) {
				t.Errorf("ownFlags(%q) = %q, %+v, %v; want %q, %+v", c.args, got, own, err, c.want, c.own)
			}
		})
	}
	_, _, err := ownFlags([]string{"--race=maybe"})
	if err == nil || !strings.Contains(err.Error(), "--race=false") {
		t.Errorf("--race=maybe: %v, want refused, naming --race=false", err)
	}
}
