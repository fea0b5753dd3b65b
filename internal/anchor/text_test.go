package anchor

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("update", false, "rewrite the golden files under testdata/")

// What cairn stale prints, for each kind of change, against
// testdata/stale.golden.
func TestWriteText(t *testing.T) {
	t.Parallel()
	r := &Report{
		Head:     "3e3324eef3dd4ead7c49e1695d00d6ccb8512d44",
		Anchored: 4,
		Stale: []Stale{{
			ID: "01M8T0XJRPK3EEC77YK372FXF1", Title: "Retries back off\x1b[2J", Commit: "4174984adf056a864fa3ea4d2728615d2e923514", Ago: 14,
			Changes: []Change{
				{Anchor: Anchor{Path: "internal/queue/retry.go"}, What: Changed, Ago: 12},
				{Anchor: Anchor{Path: "internal/queue/retry.go", Line: 40}, What: Changed, Ago: 0},
				{Anchor: Anchor{Path: "internal/queue/retry.go", Symbol: "Backoff"}, What: Moved, To: "internal/queue/wait.go", Ago: 1},
			},
		}},
		Gone: []Stale{{
			ID: "s-1", Title: "Fixed the queue", Commit: "4174984adf056a864fa3ea4d2728615d2e923514", Ago: -1,
			Changes: []Change{
				{Anchor: Anchor{Path: "docs/old.md"}, What: Deleted, Ago: 3},
				{Anchor: Anchor{Path: "a.go"}, What: Renamed, To: "b.go", Ago: -1},
				{Anchor: Anchor{Path: "a.go", Symbol: "Limit"}, What: Vanish, Ago: -1},
			},
		}},
		Unknown:  []string{"01M8T0XJRPK3EEC77YK372FXF2"},
		Rejected: []Rejection{{ID: "01M8T0XJRPK3EEC77YK372FXF1", Path: "../secrets.txt", Reason: "outside the project"}},
	}
	var b bytes.Buffer
	esc := func(s string) string { return strings.ReplaceAll(s, "\x1b", `\x1b`) }
	if err := WriteText(&b, r, esc); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- marks\n" + r.Stale[0].Mark() + "\n" + r.Gone[0].Mark() + "\n")
	golden := filepath.Join("testdata", "stale.golden")
	if *rewrite {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("got:\n%s\nwant (go test -update rewrites it):\n%s", b.String(), want)
	}
}
