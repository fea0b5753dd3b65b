package gitdiff

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
)

func TestWritePatchAndStat(t *testing.T) {
	ctx := context.Background()
	s, _, err := gitstore.Init(ctx, t.TempDir(), map[string][]byte{"core/a.md": []byte("one\ntwo\n")}, "init", gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	unlock, err := s.Lock(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if err := s.WriteFile("core/a.md", []byte("one\nthree\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFile("core/b.md", []byte("b\n")); err != nil {
		t.Fatal(err)
	}
	diffs, err := s.Diff(ctx, gitstore.DiffOptions{})
	if err != nil || len(diffs) != 2 {
		t.Fatalf("diff = %v, %v", diffs, err)
	}

	var b strings.Builder
	if err := WritePatch(&b, diffs, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"diff --git a/core/a.md b/core/a.md\n",
		" one\n-two\n+three\n",
		"new file mode 100644\n",
		"+++ b/core/b.md\n@@ -0,0 +1 @@\n+b\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("patch lacks %q:\n%s", want, b.String())
		}
	}

	b.Reset()
	if err := WriteStat(&b, diffs); err != nil {
		t.Fatal(err)
	}
	want := " core/a.md |    2 +-\n core/b.md |    1 +\n 2 files changed, 2 insertions(+), 1 deletions(-)\n"
	if b.String() != want {
		t.Errorf("stat:\n%s\nwant:\n%s", b.String(), want)
	}
}
