package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// maxLintCache bounds a cached lint's file: a few lines a design.
const maxLintCache = 1 << 20

// cachedLintWarnings is lintWarnings for ds, taken from the cache folder
// (cacheDir/lint) when this same ddbharness binary linted the same
// designs before: the lint's pools and seeds are fixed, so one binary
// finds the same warnings (an ID a scenario's write makes from the clock
// may differ: the kept warnings name the linting run's), and any change
// to the code (a design, a scenario, the lint) builds another binary. It
// saves the lint's seconds of CPU on every warm verify.
func cachedLintWarnings(ctx context.Context, w io.Writer, ds []designs.Design, cacheDir string) {
	key, err := binaryKey()
	if err != nil {
		lintWarnings(ctx, w, ds)
		return
	}
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Name
	}
	sum := sha256.Sum256([]byte(strings.Join(names, " ")))
	path := filepath.Join(cacheDir, "lint", hex.EncodeToString(sum[:8])+".txt")
	cachedLines(w, path, key, func(out io.Writer) bool { return lintWarnings(ctx, out, ds) && ctx.Err() == nil })
}

// binaryKey is the hash of this executable's bytes: a cached result's key.
func binaryKey() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cachedLines writes to w what the file at path keeps under key, or else
// what run writes, which it keeps there when run reports it complete. The
// file's first line is its key; a file that is not one (missing, damaged,
// over maxLintCache, another key) is written anew.
func cachedLines(w io.Writer, path, key string, run func(io.Writer) bool) {
	if b, err := userfile.ReadRegular(path, maxLintCache); err == nil {
		if head, rest, ok := bytes.Cut(b, []byte("\n")); ok && string(head) == key {
			_, _ = w.Write(rest)
			return
		}
	}
	var out bytes.Buffer
	complete := run(&out)
	_, _ = w.Write(out.Bytes())
	if !complete || len(key)+1+out.Len() > maxLintCache {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		_ = userfile.Write(path, append([]byte(key+"\n"), out.Bytes()...), 0o644)
	}
}
