package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
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
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return badInputf("%s: %v (see ddbharness %s -h)", fs.Name(), err, fs.Name())
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
