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
	err := fs.Parse(args)
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
