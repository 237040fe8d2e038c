package runtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Proc is a live process as /proc shows it, for specs that kill a run's
// JVM or check that nothing outlived a run.
type Proc struct {
	PID, PPID int
	Comm      string // the executable's name, as the kernel keeps it
	Cmdline   string // the arguments, joined by spaces
	Environ   []byte // NUL-separated NAME=value pairs
}

// Procs lists the live processes of this machine that can be read;
// zombies (ended, not yet waited for) are left out.
func Procs() []Proc {
	var out []Proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at its last ')'.
		open, closing := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || closing < open {
			continue
		}
		fields := strings.Fields(string(stat[closing+1:]))
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		environ, _ := os.ReadFile(filepath.Join(dir, "environ"))
		out = append(out, Proc{PID: pid, PPID: ppid, Comm: string(stat[open+1 : closing]),
			Cmdline: strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " ")), Environ: environ})
	}
	return out
}

// Descends reports whether p descends from ancestor, in procs.
func Descends(procs []Proc, p Proc, ancestor int) bool {
	parent := make(map[int]int, len(procs))
	for _, q := range procs {
		parent[q.PID] = q.PPID
	}
	for a := p.PPID; a > 1; a = parent[a] {
		if a == ancestor {
			return true
		}
	}
	return false
}

// HasEnv reports whether p's environment holds name=value.
func (p Proc) HasEnv(name, value string) bool {
	return bytes.Contains(append([]byte{0}, p.Environ...), []byte("\x00"+name+"="+value+"\x00"))
}
