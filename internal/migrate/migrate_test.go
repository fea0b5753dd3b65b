package migrate_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/migrate"
	"github.com/cairn-mem/cairn/internal/model"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite the golden files of migrated fixtures")

// TestFixtures reads every format the project has had (testdata: items
// and session.yaml files without a schema line, the first schema-1
// files, and a newer schema than this cairn knows), checks the schema
// each was read at, and that the upgraded file, once written, reads back
// at the latest schema unchanged (testdata/golden).
func TestFixtures(t *testing.T) {
	names, _ := filepath.Glob("testdata/*.*")
	if len(names) < 7 {
		t.Fatalf("fixtures: %v", names)
	}
	for _, name := range names {
		base := filepath.Base(name)
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			switch {
			case strings.Contains(base, "-0-"), base == "session-0.yaml":
				want = 0
			case strings.Contains(base, "-2-"):
				want = 2
			}
			var out []byte
			var read int
			if strings.HasPrefix(base, "session") {
				s, err := model.ParseSession(base, data)
				if want == 2 {
					checkNewer(t, err, migrate.Session)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				read = s.ReadSchema()
				if s.Schema != model.SessionSchema {
					t.Errorf("schema %d after reading, want %d", s.Schema, model.SessionSchema)
				}
				if out, err = s.Marshal(); err != nil {
					t.Fatal(err)
				}
				back, err := model.ParseSession(base, out)
				if err != nil || back.ReadSchema() != model.SessionSchema || back.Title != s.Title || back.Status != s.Status {
					t.Errorf("the upgraded file reads back as %+v, %v", back, err)
				}
			} else {
				p := "core/decisions/" + base
				it, err := model.Parse(p, data)
				if want == 2 {
					checkNewer(t, err, migrate.Item)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				read = it.ReadSchema()
				if out, err = it.Marshal(); err != nil {
					t.Fatal(err)
				}
				back, err := model.Parse(p, out)
				if err != nil || back.ReadSchema() != model.SchemaVersion || back.Title != it.Title || back.Body != it.Body || back.ID != it.ID {
					t.Errorf("the upgraded file reads back as %+v, %v", back, err)
				}
			}
			if read != want {
				t.Errorf("read at schema %d, want %d", read, want)
			}
			golden := filepath.Join("testdata", "golden", base)
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if string(g) != string(out) {
				t.Errorf("upgraded file:\n%s\nwant (%s):\n%s", out, golden, g)
			}
		})
	}
}

func checkNewer(t *testing.T, err error, k migrate.Kind) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "newer than this cairn knows") {
		t.Fatalf("a newer schema read as %v", err)
	}
	var ne *migrate.NewerError
	if !errors.As(err, &ne) || ne.Kind != k {
		t.Errorf("%v is not a *NewerError", err)
	}
}

func TestUp(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		from       int
		err        string
		after      string
	}{
		{"missing", "a: 1\n", 0, "", "a: 1\nschema: 1\n"},
		{"null", "schema: ~\na: 1\n", 0, "", "schema: 1\na: 1\n"},
		{"latest", "schema: 1\n", 1, "", "schema: 1\n"},
		{"newer", "schema: 7\n", 7, "version 7 is newer than this cairn knows (1)", "schema: 7\n"},
		{"not a number", "schema: two\n", 0, "want a whole number", "schema: two\n"},
		{"negative", "schema: -1\n", 0, "want a whole number", "schema: -1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
				t.Fatal(err)
			}
			from, err := migrate.Up(migrate.Item, doc.Content[0])
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if from != tc.from {
				t.Errorf("from %d, want %d", from, tc.from)
			}
			out, _ := yaml.Marshal(doc.Content[0])
			if string(out) != tc.after {
				t.Errorf("after:\n%s\nwant:\n%s", out, tc.after)
			}
		})
	}
}

// TestRegistry: each kind's steps run from 0 to the latest without a gap,
// and the latest is what internal/model writes.
func TestRegistry(t *testing.T) {
	for k, writes := range map[migrate.Kind]int{migrate.Item: model.SchemaVersion, migrate.Session: model.SessionSchema} {
		if got := migrate.Latest(k); got != writes {
			t.Errorf("%s: registry's latest schema %d, model writes %d", k, got, writes)
		}
		seen := map[int]bool{}
		for _, s := range migrate.Steps() {
			if s.Kind == k {
				if seen[s.From] || s.Why == "" || s.Apply == nil {
					t.Errorf("%s step from %d: repeated or incomplete", k, s.From)
				}
				seen[s.From] = true
			}
		}
		for v := 0; v < writes; v++ {
			if !seen[v] {
				t.Errorf("%s: no step from schema %d", k, v)
			}
		}
	}
}
