package docs

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// Load gives, on any number of goroutines, the documents Document gives
// called on each path in turn with one Sessions.
func TestLoadSameAsDocument(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		dir := fmt.Sprintf("sessions/s%02d", i)
		if i%3 == 0 {
			dir = fmt.Sprintf("archive/2025/0%d/s%02d", 1+i%9, i)
		}
		if i%4 != 0 {
			files[dir+"/session.yaml"] = fmt.Sprintf("id: s%02d\nstatus: active\nstarted: 2024-11-%02dT21:10:00Z\n", i, 1+i)
		}
		if i%5 != 0 {
			files[dir+"/transcript.md"] = fmt.Sprintf("# Transcript\n\n## Session %d · 2024-11-28\n\n**Maya:** I found a flat in Delfshaven, floor %d.\n\n**Tom:** With the old boats?\n", i, i)
		}
		if i%7 == 0 { // with a byte order mark and CRLF lines
			files[dir+"/transcript.md"] = "\uFEFF" + strings.ReplaceAll(files[dir+"/transcript.md"], "\n", "\r\n")
		}
		files[dir+"/prompts.md"] = fmt.Sprintf("# Prompts\n\n## Prompt 1\n\nI found a flat in Delfshaven, floor %d.\n", i)
		files[dir+"/summary.md"] = fmt.Sprintf("# Summary\n\n## Segment 1\n\n- Maya: I found a flat in Delfshaven, floor %d.\n- Maya moves on the %dth.\n", i, i)
		files[dir+"/observations.md"] = "# Observations\n\n- ran the tests\n"
	}
	for i := range 20 {
		files[fmt.Sprintf("core/fact/f%02d.md", i)] = fmt.Sprintf("---\ntitle: Fact %d\nkind: fact\ncreated: 2024-11-%02dT10:00:00Z\n---\nFact number %d.\n", i, 1+i, i)
	}
	files["core/note/broken.md"] = "---\ntitle: [unclosed\n---\nbody\n"
	var paths []string
	for p, data := range files {
		if err := os.MkdirAll(filepath.Join(root, path.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if Indexable(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	read := func(p string) ([]byte, int64, error) {
		b, err := os.ReadFile(filepath.Join(root, p))
		return b, int64(len(b)), err
	}

	s := NewSessions(root)
	var want []Loaded
	for _, p := range paths {
		l := Loaded{Path: p}
		if !Repeated(p, s) {
			data, size, _ := read(p)
			l.Size = size
			l.Doc, l.OK = Document(p, data, s)
		}
		want = append(want, l)
	}
	for _, workers := range []int{1, 3, 16} {
		got, err := Load(context.Background(), root, paths, workers, read)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%d workers, %s:\n got %+v\nwant %+v", workers, paths[i], got[i], want[i])
				}
			}
		}
	}
}
