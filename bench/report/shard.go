package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// ShardFile is the file a shard writes beside its report for `ddbharness
// report merge` (bench.ShardFile).
const ShardFile = "shard.json"

// WriteShard writes the run's shard file. A NaN or infinite figure is
// written as 0, as in metrics.json: one such figure must not cost the
// shard its whole share of the run.
func WriteShard(w io.Writer, out bench.Outcome) error {
	f, _ := finiteCopy(bench.ShardFileOf(out))
	return json.NewEncoder(w).Encode(f)
}

// isShard reports whether out is one shard of a named run (not a merge).
func isShard(out bench.Outcome) bool { return out.Shard.Run != "" && len(out.Merged) == 0 }

// MaxShardBytes bounds the shard file ReadShard reads: its ledger holds
// a row per partition key value and second, tens of megabytes for a long
// run over many keys.
const MaxShardBytes = 1 << 30

// ReadShard reads a shard's report folder back: its shard file, and
// where its calls are (bench.Merge reads them). Both must be regular
// files (a named pipe would hold the merge for ever), the shard file at
// most MaxShardBytes, read within userfile.Read's bounds (it returns when
// ctx ends), and every field the writer always writes must be there,
// every count a merge sums 0 or more (checkShardFile).
func ReadShard(ctx context.Context, dir string) (bench.Shard, error) {
	s := bench.Shard{Dir: dir}
	path := filepath.Join(dir, ShardFile)
	raw, err := userfile.Read(ctx, path, MaxShardBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, fmt.Errorf("%s has no %s: give the report folders of a sharded run (ddbharness bench --shard I/N --run NAME)", dir, ShardFile)
	case errors.Is(err, userfile.ErrNotRegular), errors.Is(err, userfile.ErrTooLarge), errors.Is(err, userfile.ErrSlow):
		return s, fmt.Errorf("%w: give the shard's folder as the run wrote it", err)
	case err != nil:
		return s, err
	}
	if err := json.Unmarshal(raw, &s.File); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	if s.File.Format != bench.ShardFormat {
		return s, fmt.Errorf("%s: format %q, this ddbharness reads %q: merge with the ddbharness that made it", path, s.File.Format, bench.ShardFormat)
	}
	if err := checkShardFile(raw, s.File); err != nil {
		return s, fmt.Errorf("%s: %w; merge the shard's folder as the run wrote it", path, err)
	}
	s.Results = filepath.Join(dir, ResultsFile)
	f, err := userfile.OpenRegular(s.Results)
	if errors.Is(err, userfile.ErrNotRegular) {
		return s, fmt.Errorf("%w: give the shard's folder as the run wrote it", err)
	}
	if err != nil {
		return s, err
	}
	return s, f.Close()
}

// scale says how the run was spread over machines, and what it ran on.
func (p *printer) scale(out bench.Outcome) {
	if out.Service != "" {
		p.f("Calls answered by %s.\n\n", out.Service)
	}
	switch {
	case len(out.Merged) > 0:
		p.f("Merged from the %d shards of run `%s`, as if one machine had made all their calls: vegeta's figures over all the calls, the capacity model over the summed ledgers.", out.Shard.N, out.Shard.Run)
		if out.LateStart > 0 {
			p.f(" The latest shard began measuring %s after the common start.", out.LateStart.Round(time.Millisecond))
		}
		p.f("\n\n")
	case isShard(out):
		p.f("Shard %d of %d of run `%s`: every %d%s call of the schedule, against a shared table. Merge every shard's folder with `ddbharness report merge` for the run's report.",
			out.Shard.I, out.Shard.N, out.Shard.Run, out.Shard.N, ordinal(out.Shard.N))
		if out.LateStart > 0 {
			p.f(" It began measuring %s after the common start.", out.LateStart.Round(time.Millisecond))
		}
		p.f("\n\n")
	}
	if out.KeptTable {
		p.f("The table `%s` was kept for inspection: `ddbharness tables -delete` deletes it.\n\n", out.Table)
	}
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}
