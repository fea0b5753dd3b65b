package summarize

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func loadRequest(t testing.TB, name string) Request {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var req Request
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return req
}

// golden renders a result the way the golden files hold it: the summary,
// then the items as JSON.
func golden(res Result) string {
	items, _ := json.MarshalIndent(res.Items, "", "  ")
	return res.Summary + "\n---- items ----\n" + string(items) + "\n"
}

func TestExtractiveGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "segments", "*.json"))
	if err != nil || len(inputs) < 3 {
		t.Fatalf("want 3 or more segments in testdata/segments, got %d (%v)", len(inputs), err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			req := loadRequest(t, in)
			res, err := Extractive{}.Summarize(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Provider != "extractive" || res.Usage != (Usage{}) {
				t.Errorf("provider %q usage %+v", res.Provider, res.Usage)
			}
			got := golden(res)
			path := strings.TrimSuffix(in, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the output (run with -update to accept):\n%s", path, got)
			}
			// Deterministic: the same input gives the same bytes.
			again, _ := Extractive{}.Summarize(context.Background(), req)
			if golden(again) != got {
				t.Error("two runs differ")
			}
		})
	}
}

// TestFilesReplaced: an edit that gives a line's value another one is
// listed with the file, first value to last; code edits and an edit put
// back are not.
func TestFilesReplaced(t *testing.T) {
	edit := func(path string, reps ...[2]string) Turn {
		return Turn{Role: Tool, Tool: "Edit", Input: path, Text: "ok", Replaced: reps}
	}
	req := Request{First: true, Segment: Segment{Index: 1, Turns: []Turn{
		{Role: User, Text: "make the reminders queue run 15 at a time"},
		edit("config/config.exs", [2]string{"reminders: 10", "reminders: 3"}),
		edit("config/config.exs", [2]string{"reminders: 3", "reminders: 15"}),
		edit("lib/app.ex", [2]string{"def run(x), do: x", "def run(y), do: y"}),
		edit("config/controllers.yaml", [2]string{"update_rate: 500  # Hz", "update_rate: 1000  # Hz, RT thread on core 3"}),
		edit("config/prod.exs", [2]string{"pool_size: 10", "pool_size: 20"}),
		edit("config/prod.exs", [2]string{"pool_size: 20", "pool_size: 10"}),
		{Role: Assistant, Text: "Done: the reminders queue runs 15 at a time."},
	}}}
	res, err := Extractive{}.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- config/config.exs (edited ×2: `reminders: 10` → `reminders: 15`)", "- lib/app.ex (edited)", "- config/prod.exs (edited ×2)", "- config/controllers.yaml (edited: `update_rate: 500` → `update_rate: 1000`)"} {
		if !strings.Contains(res.Summary, want+"\n") {
			t.Errorf("summary lacks %q:\n%s", want, res.Summary)
		}
	}
}
