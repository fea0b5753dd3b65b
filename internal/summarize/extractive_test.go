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
