package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// mergeArgs are the arguments of report merge, the one command below
// another, which makes its own flag set.
const mergeArgs = "[--out DIR] SHARD_DIR..."

// newFlags makes a command's flag set: errors come back to the caller,
// which says them as bad input, and -h prints the usage line (name and
// args), about if any, and then the flags.
func newFlags(name, args, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: ddbharness %s\n", strings.TrimSpace(name+" "+args))
		if about != "" {
			fmt.Fprintf(fs.Output(), "\n%s\n\n", about)
		}
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs; a flag it cannot parse is bad input, and
// -h or --help is not an error at all.
func parseFlags(fs *flag.FlagSet, args []string) error {
	// The flag package prints the whole usage on any error; only -h asks
	// for it, a bad value wants one line that says what the flag takes.
	var usage bytes.Buffer
	out := fs.Output()
	fs.SetOutput(&usage)
	err := fs.Parse(joinSwitches(fs, args))
	fs.SetOutput(out)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		out.Write(usage.Bytes())
		return err
	}
	return badInputf("%s: %v%s (see ddbharness %s -h)", fs.Name(), err, wants(fs, err), fs.Name())
}

// wants says what a flag whose value did not parse takes, by its type.
func wants(fs *flag.FlagSet, err error) string {
	_, rest, ok := strings.Cut(err.Error(), " for flag -")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, ":")
	f := fs.Lookup(name)
	if f == nil {
		return ""
	}
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "uint":
		return ": want a whole number from 0 to " + strconv.FormatUint(math.MaxUint64, 10)
	case "int":
		return ": want a whole number"
	case "float":
		return ": want a number"
	case "duration":
		return ": want a duration such as 20s or 2m"
	}
	return ""
}

// oneArg parses args into fs and returns the one argument left, what
// names in the error when there is not exactly one.
func oneArg(fs *flag.FlagSet, args []string, what string) (string, error) {
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return "", badInputf("%s: want one %s, got %d", fs.Name(), what, fs.NArg())
	}
	return fs.Arg(0), nil
}

// writerArgs is oneArg for a command that writes into the repository at
// the current folder: the argument and that folder.
func writerArgs(fs *flag.FlagSet, args []string, what string) (arg, root string, err error) {
	if arg, err = oneArg(fs, args, what); err != nil {
		return "", "", err
	}
	root, err = os.Getwd()
	return arg, root, err
}

// onOff is a switch that also takes a value, read the same in every
// command (--limits): alone it is on; =on and =off set it, and so does on
// or off as the next word, which parseFlags joins to it (true and false
// too, in any case, as a Go switch takes them). So in "bench --limits
// shop" the word after the switch is a scenario, not its value. Any other
// value is refused as the flags are parsed, naming on, off and make's
// variable.
type onOff struct {
	on  bool
	env string // the make variable that sets it
}

// onOffFlag adds the switch name to fs, on or off when left out, set by
// the make variable env.
func onOffFlag(fs *flag.FlagSet, name, env string, on bool, usage string) *onOff {
	o := &onOff{on: on, env: env}
	fs.Var(o, name, usage)
	return o
}

func (o *onOff) String() string {
	if o == nil || !o.on {
		return "off"
	}
	return "on"
}

func (o *onOff) Set(v string) error {
	on, ok := onOffWord(v)
	if !ok {
		return fmt.Errorf("want on or off (%s=on or %s=off); the flag alone is on", o.env, o.env)
	}
	o.on = on
	return nil
}

func (o *onOff) IsBoolFlag() bool { return true }

// onOffWord reads a switch's value: on or off, true or false, in any case.
func onOffWord(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true":
		return true, true
	case "off", "false":
		return false, true
	}
	return false, false
}

// joinSwitches reads "--name on" and "--name off" (two arguments) as
// "--name=on" and "--name=off" for every switch of fs that takes a value
// (onOff): a switch alone means on, so the flag package would take the
// word for an argument.
func joinSwitches(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if isSwitch(fs, a) && i+1 < len(args) {
			if _, ok := onOffWord(args[i+1]); ok {
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// isSwitch reports whether arg is -name or --name of an onOff flag of fs.
func isSwitch(fs *flag.FlagSet, arg string) bool {
	name, ok := strings.CutPrefix(arg, "-")
	if !ok {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(name, "-"))
	if f == nil {
		return false
	}
	_, sw := f.Value.(*onOff)
	return sw
}
