package rollout

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFilter(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	meta := func(cwd string) string {
		return `{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6","timestamp":"2026-12-01T10:00:00.000Z","cwd":"` + cwd + `","originator":"codex_cli_rs","cli_version":"0.63.0","source":"cli"}}` + "\n"
	}
	for _, tc := range []struct {
		name, data string
		follows    bool
		err        error
	}{
		{"project", meta(proj), true, nil},
		{"inside", meta(proj + "/cmd/api"), true, nil},
		{"other", meta(dir + "/other"), false, nil},
		{"prefix only", meta(proj + "-old"), false, nil},
		{"relative", meta("proj"), false, nil},
		{"not a rollout", `{"type":"response_item","payload":{}}` + "\n", false, nil},
		{"half a line", meta(proj)[:40], false, ErrPartial},
		{"empty", "", false, ErrPartial},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(dir, "sessions", "2026", "12", "01", "rollout-2026-12-01T10-00-00-"+tc.name+".jsonl")
			os.MkdirAll(filepath.Dir(name), 0o755)
			if err := os.WriteFile(name, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			f := &Filter{Project: proj}
			got, err := f.Follows(name)
			if got != tc.follows || !errors.Is(err, tc.err) {
				t.Fatalf("Follows = %v, %v; want %v, %v", got, err, tc.follows, tc.err)
			}
			if !Is(name) {
				t.Error("Is is false")
			}
			if ok, _ := filepath.Match(Glob(dir), name); !ok {
				t.Errorf("%s does not match %s", name, Glob(dir))
			}
		})
	}
}

func TestHome(t *testing.T) {
	if h := Home("", "/home/u"); h != "/home/u/.codex" {
		t.Error(h)
	}
	if h := Home("/srv/codex/", "/home/u"); h != "/srv/codex" {
		t.Error(h)
	}
	if h := Home("rel", "/home/u"); h != "/home/u/.codex" {
		t.Error(h)
	}
}
