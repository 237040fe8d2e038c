package lint

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText prints findings as a list, one block per finding: its place,
// then what was found, the limit, why it matters and the fix, each on its
// own line so that long sentences stay readable in a terminal. The write
// patterns the hot-item check could not probe follow, one line each.
func WriteText(w io.Writer, design string, fs []Finding) error {
	var risks, unprobed []Finding
	for _, f := range fs {
		if f.Check == CheckNotProbed {
			unprobed = append(unprobed, f)
		} else {
			risks = append(risks, f)
		}
	}
	var err error
	if len(risks) == 0 {
		_, err = fmt.Fprintf(w, "lint %s: no findings\n", design)
	} else {
		_, err = fmt.Fprintf(w, "lint %s: %d finding(s)\n", design, len(risks))
	}
	for i, f := range risks {
		if err != nil {
			return err
		}
		where := f.Target
		if f.Pattern != "" {
			where += " " + string(f.Pattern)
		}
		_, err = fmt.Fprintf(w, "%2d. %s  %s  [%s]\n    found: %s\n    limit: %s\n    why:   %s\n    fix:   %s\n",
			i+1, f.Design, where, f.Check, f.Found, f.LimitText, f.Why, f.Fix)
	}
	for _, f := range unprobed {
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "    %s\n", f.Found)
	}
	return err
}

// WriteJSON prints findings as one JSON array.
func WriteJSON(w io.Writer, fs []Finding) error {
	if fs == nil {
		fs = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(fs)
}

// Warning is a finding on one line, for make verify: lint findings there
// are warnings, never failures.
func (f Finding) Warning() string {
	where := f.Target
	if f.Pattern != "" {
		where += " " + string(f.Pattern)
	}
	return fmt.Sprintf("lint: warning: %s %s [%s]: %s (limit: %s)", f.Design, where, f.Check, f.Found, f.LimitText)
}
