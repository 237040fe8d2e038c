// Package userfile reads and writes the files a user names or is given:
// a model, a baseline, a report, a shard's shard.json, a Ginkgo report.
//
// A file is written beside its target and renamed over it once whole and
// synced (Write, Create): a full disk or a crash leaves the user's previous
// file as it was, never a truncated one. A file is read only when it is a
// regular file, and only up to a limit (ReadRegular, OpenRegular): a named
// pipe, a device or an endless file given as input is refused at once
// instead of holding the command for ever. A command reads a file it is
// named with Read, which bounds the read in time too and returns when the
// command's context ends (Ctrl-C, SIGTERM).
package userfile
