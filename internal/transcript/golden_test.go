package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixtures are the sample transcripts shared by the repository's packages.
const fixtures = "../../testdata/transcripts"

// fixtureFiles lists the sample transcripts, as paths relative to fixtures.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(fixtures, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(fixtures, path)
		files = append(files, rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures in " + fixtures)
	}
	return files
}

// golden is what a golden file records of a parse.
type golden struct {
	Format Format `json:"format"`
	Size   int    `json:"size"`
	// the parse as a tailer does it, the writer still busy
	Tail struct {
		Consumed int64 `json:"consumed"`
		Lines    int   `json:"lines"`
		Events   int   `json:"events"`
	} `json:"tail"`
	// the parse of the finished file
	Consumed  int64    `json:"consumed"`
	Lines     int      `json:"lines"`
	Errors    []string `json:"errors"`
	Events    []Event  `json:"events"`
	Sidechain []Event  `json:"sidechain"`
}

func parseFixture(t *testing.T, rel string) (Format, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, rel))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Detect(rel, data[:min(len(data), 4096)])
	if err != nil {
		t.Fatal(err)
	}
	return f, data
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, rel := range fixtureFiles(t) {
		t.Run(rel, func(t *testing.T) {
			f, data := parseFixture(t, rel)
			g := golden{Format: f, Size: len(data)}
			tail, err := Parse(f, data, Options{Name: filepath.Base(rel)})
			if err != nil {
				t.Fatal(err)
			}
			g.Tail.Consumed, g.Tail.Lines, g.Tail.Events = tail.Consumed, tail.Lines, len(tail.Events)+len(tail.Sidechain)
			p, _ := Parse(f, data, Options{Name: filepath.Base(rel), Final: true})
			g.Consumed, g.Lines, g.Events, g.Sidechain = p.Consumed, p.Lines, p.Events, p.Sidechain
			for _, e := range p.Errors {
				g.Errors = append(g.Errors, e.Error())
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", strings.ReplaceAll(rel, string(filepath.Separator), "_")+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("parse of %s differs from %s (run go test -update and review the diff)\n%s", rel, path, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + itoa(i+1) + ":\n want: " + wl + "\n  got: " + gl
		}
	}
	return ""
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
