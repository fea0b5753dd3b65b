package gitsync

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// gitIn runs git in dir with stdin, for plumbing the work tree cannot do.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir(),
		"GIT_AUTHOR_NAME=E", "GIT_AUTHOR_EMAIL=e@x", "GIT_COMMITTER_NAME=E", "GIT_COMMITTER_EMAIL=e@x")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// HostileCommit makes a commit in the bare repository on top of main whose
// tree is main's with one more file, named name under core/notes/, built
// with git's plumbing since no work tree can hold such names.
func hostileCommit(t *testing.T, bare, name string) string {
	t.Helper()
	blob := gitIn(t, bare, "hostile\n", "hash-object", "-w", "--stdin")
	sub := gitIn(t, bare, "100644 blob "+blob+"\t"+name+"\x00", "mktree", "-z")
	notes := gitIn(t, bare, "040000 tree "+sub+"\tnotes\x00", "mktree", "-z")
	top := gitIn(t, bare, "", "ls-tree", "-z", "main")
	root := gitIn(t, bare, top+"040000 tree "+notes+"\tcore\x00", "mktree", "-z")
	return gitIn(t, bare, "", "commit-tree", root, "-p", "main", "-m", "hostile")
}

// Item 8 of issue 12: a remote whose tree carries a name with a control
// character, over 255 bytes or only dots before its extension is refused
// by the merge with one line, as a symlink is, and nothing is written.
func TestMergeRefusesBadNames(t *testing.T) {
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	good := gitIn(t, bare, "", "rev-parse", "main")
	head := gitCLI(t, a.Dir(), "rev-parse", "HEAD")
	for _, name := range []string{"new\nline.md", "esc\x1b[31m.md", "..md", "...", strings.Repeat("l", 300) + ".md"} {
		c := hostileCommit(t, bare, name)
		gitIn(t, bare, "", "update-ref", "refs/heads/main", c)
		_, err := syncStore(t, a, "origin")
		if !errors.Is(err, ErrHostile) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "bad file name") {
			t.Errorf("%q: sync = %v, want one line refusing it", name, err)
		}
		if now := gitCLI(t, a.Dir(), "rev-parse", "HEAD"); now != head {
			t.Errorf("%q: HEAD moved", name)
		}
		if ents, _ := os.ReadDir(a.Dir() + "/core/notes"); len(ents) > 0 {
			t.Errorf("%q: written: %v", name, ents)
		}
		gitIn(t, bare, "", "update-ref", "refs/heads/main", good)
		gitCLI(t, a.Dir(), "update-ref", "refs/remotes/origin/main", good)
	}
	checkGit(t, a)
}
