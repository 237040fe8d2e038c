package testbed

import (
	"slices"
	"testing"
)

func TestJITArgsLeaveTheJITToAUserWhoChoosesIt(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if got := jitArgs(env(nil)); !slices.Equal(got, []string{"-XX:TieredStopAtLevel=1"}) {
		t.Errorf("no choice of the user's: got %q, want the first JIT compiler alone", got)
	}
	if got := jitArgs(env(map[string]string{"JAVA_TOOL_OPTIONS": "-Xmx1g"})); len(got) != 1 {
		t.Errorf("options that do not choose the JIT: got %q, want the default", got)
	}
	for _, kv := range []map[string]string{
		{"JAVA_TOOL_OPTIONS": "-XX:TieredStopAtLevel=4"},
		{"JDK_JAVA_OPTIONS": "-Xmx2g -XX:-TieredCompilation"},
	} {
		if got := jitArgs(env(kv)); got != nil {
			t.Errorf("%v: got %q, want nothing of ours", kv, got)
		}
	}
}
