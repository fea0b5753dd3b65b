package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
)

// TestSplitIndexWithGit checkpoints a sequence of adds, edits, deletes,
// renames and mode changes, some after the user ran git in the memory,
// and checks after each what a git user sees: fsck, a clean status, an
// index equal to HEAD's tree. The stat cache and .git/index are split
// indexes; the bulk steps make new bases.
func TestSplitIndexWithGit(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("core/facts/f%02d.md", i)] = fmt.Sprintln(i)
	}
	s := newStore(t, files)
	dir := s.Dir()
	git := func(args ...string) string { t.Helper(); return gitCLI(t, dir, args...) }
	rm := func(p string) {
		t.Helper()
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name  string
		do    func()
		paths []string // nil: the whole tree
		fresh bool     // a new Store, reading the cache from disk
	}{
		{"add", func() { write(t, s, "core/facts/new.md", "new\n") }, nil, false},
		{"edit", func() { write(t, s, "core/facts/f01.md", "one\n") }, nil, true},
		{"delete", func() { rm("core/facts/f02.md") }, nil, false},
		{"rename", func() {
			os.Rename(filepath.Join(dir, "core/facts/f03.md"), filepath.Join(dir, "core/decisions/f03.md"))
		}, nil, true},
		{"mode", func() { os.Chmod(filepath.Join(dir, "core/facts/f04.md"), 0o755) }, nil, false},
		{"known paths", func() { write(t, s, "core/facts/f05.md", "five\n") }, []string{"core/facts/f05.md"}, false},
		{"git add", func() {
			write(t, s, "core/facts/f06.md", "six\n")
			git("add", "core/facts/f06.md")
		}, nil, true},
		{"git commit", func() {
			write(t, s, "core/facts/f07.md", "seven\n")
			git("-c", "user.name=U", "-c", "user.email=u@example.com", "commit", "-qam", "by hand")
			write(t, s, "core/facts/f08.md", "eight\n")
		}, nil, false},
		{"git checkout", func() {
			write(t, s, "core/facts/f09.md", "nine\n")
			write(t, s, "core/facts/f10.md", "ten\n")
			git("checkout", "--", "core/facts/f09.md")
		}, nil, true},
		{"git gc and status", func() {
			git("gc", "-q")
			git("status")
			write(t, s, "core/facts/f11.md", "eleven\n")
		}, nil, false},
		{"git unsplits, its base gone", func() {
			git("update-index", "--no-split-index")
			names, _ := filepath.Glob(filepath.Join(dir, ".git", statcache.BasePattern))
			for _, n := range names {
				os.Remove(n)
			}
			write(t, s, "core/facts/f13.md", "thirteen\n")
		}, nil, false},
		{"bulk add", func() {
			for i := range 300 {
				write(t, s, fmt.Sprintf("sessions/s%d/f%03d.md", i%9, i), fmt.Sprintln("bulk", i))
			}
		}, nil, false},
		{"edit after rebase", func() { write(t, s, "sessions/s1/f001.md", "edited\n") }, nil, true},
		{"bulk delete", func() { os.RemoveAll(filepath.Join(dir, "sessions")) }, nil, false},
		{"racy edit", func() {
			write(t, s, "core/facts/f12.md", "12a\n")
		}, nil, false},
		{"same size, same second", func() { write(t, s, "core/facts/f12.md", "12b\n") }, nil, true},
	}
	bases := map[string]bool{}
	for _, st := range steps {
		st.do()
		if st.fresh {
			var err error
			if s, err = Open(context.Background(), dir, Options{Identity: Identity{Name: "T", Email: "t@example.com"}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := checkpoint(t, s, CheckpointOptions{Subject: st.name, Paths: st.paths}); err != nil && !errors.Is(err, ErrNothingToDo) {
			t.Fatalf("%s: %v", st.name, err)
		}
		checkGit(t, s)
		if tree, idx := lsTree(git("ls-tree", "-r", "HEAD")), git("ls-files", "-s"); tree != idx {
			t.Fatalf("%s: git ls-files -s:\n%s\nHEAD's tree:\n%s", st.name, idx, tree)
		}
		c, err := s.index.files().Read()
		if err != nil || c.Base == nil {
			t.Fatalf("%s: stat cache not split (%v)", st.name, err)
		}
		if git("ls-files", "--debug") == "" || !strings.Contains(git("rev-parse", "--shared-index-path"), statcache.BaseName(c.Base.Sum)) {
			t.Errorf("%s: .git/index does not name the cache's base", st.name)
		}
		if names, _ := filepath.Glob(s.StatePath(statcache.BasePattern)); len(names) != 1 {
			t.Errorf("%s: bases in the state folder: %v", st.name, names)
		}
		bases[c.Base.Sum.String()] = true
	}
	if len(bases) < 3 { // the first, and one per bulk step
		t.Errorf("%d bases made, want 3 or more", len(bases))
	}
	if out := git("log", "--format=%s", "-n", "3"); !strings.Contains(out, "same size, same second") {
		t.Errorf("the racy edit was not committed:\n%s", out)
	}
}

// lsTree turns git ls-tree -r output into git ls-files -s form.
func lsTree(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		meta, path, _ := strings.Cut(l, "\t")
		f := strings.Fields(meta)
		fmt.Fprintf(&b, "%s %s 0\t%s\n", f[0], f[2], path)
	}
	return b.String()
}
