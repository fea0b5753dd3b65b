package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
	"github.com/cairn-mem/cairn/internal/crypt"
)

const secret = "ZEBRA-PLAINTEXT-7431"

// noPlaintext fails when an object of the git repository dir holds secret.
func noPlaintext(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch").Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("git cat-file in %s: %v", dir, err)
	}
	if bytes.Contains(out, []byte(secret)) {
		t.Fatalf("an object of %s holds the plaintext", dir)
	}
}

func writeMem(t *testing.T, proj, p, data string) {
	t.Helper()
	name := filepath.Join(proj, ".cairn", filepath.FromSlash(p))
	os.MkdirAll(filepath.Dir(name), 0o700)
	if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readMem(t *testing.T, proj, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(proj, ".cairn", filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSyncEncrypted syncs a keyed memory and an unkeyed clone over a
// real git daemon: no object anywhere holds the plaintext, the unkeyed
// clone keeps the ciphertext and works, and nothing is lost either way.
func TestSyncEncrypted(t *testing.T) {
	t.Parallel()
	d := gitstoretest.StartDaemon(t)
	remote := gitstoretest.Bare(t, d.Root, "mem.git")
	url := d.URL("mem.git")
	keyed := env{"CAIRN_AGE_IDENTITY": filepath.Join(t.TempDir(), "age.key")}
	out := okEnv(t, keyed, t.TempDir(), "keys", "init")
	pub, _, _ := crypt.InitIdentity(keyed["CAIRN_AGE_IDENTITY"])
	if !strings.Contains(out, "public key: "+pub) {
		t.Fatalf("keys init said %q", out)
	}
	unkeyed := env{"CAIRN_AGE_IDENTITY": filepath.Join(t.TempDir(), "none.key")}

	a := project(t)
	okEnv(t, keyed, a, "init")
	cfg := readMem(t, a, "cairn.yaml") + "\nencrypt:\n  paths: [sessions/*/transcript.md]\n"
	writeMem(t, a, "cairn.yaml", cfg)
	okEnv(t, keyed, a, "keys", "add", pub)
	if out := okEnv(t, keyed, a, "keys", "list"); !strings.Contains(out, pub+"\t(this machine)") || !strings.Contains(out, "path\tsessions/*/transcript.md") {
		t.Fatalf("keys list said %q", out)
	}
	one := "# s1\n\nthe code word is " + secret + "\n"
	writeMem(t, a, "sessions/s1/transcript.md", one)
	okEnv(t, keyed, a, "checkpoint", "-m", "s1")
	okEnv(t, keyed, a, "remote", "add", "origin", url)
	okEnv(t, keyed, a, "sync")

	b := project(t)
	okEnv(t, unkeyed, b, "init")
	okEnv(t, unkeyed, b, "remote", "add", "origin", url)
	r := cairnEnv(t, unkeyed, b, "", "sync")
	if r.code != 0 || !strings.Contains(r.stderr, "no key here") {
		t.Fatalf("unkeyed sync: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := readMem(t, b, "sessions/s1/transcript.md"); !crypt.IsCiphertext([]byte(got)) {
		t.Fatalf("the unkeyed clone's work tree holds %q", got[:min(40, len(got))])
	}
	// The unkeyed clone works: it adds a transcript of its own, encrypted
	// for the recipients, and an item; search and status work.
	two := "# s2\n\nwritten on b " + secret + "\n"
	writeMem(t, b, "sessions/s2/transcript.md", two)
	okEnv(t, unkeyed, b, "remember", "--kind", "fact", "b's fact about caching")
	okEnv(t, unkeyed, b, "checkpoint", "-m", "b's work")
	okEnv(t, unkeyed, b, "search", "caching")
	if out := okEnv(t, unkeyed, b, "search", "age-encryption.org X25519"); strings.Contains(out, "sessions/s1") {
		t.Fatalf("the unkeyed clone indexed ciphertext: %q", out)
	}
	okEnv(t, unkeyed, b, "sync")

	okEnv(t, keyed, a, "sync")
	if got := readMem(t, a, "sessions/s2/transcript.md"); got != two {
		t.Fatalf("a's copy of b's transcript is %q", got)
	}
	if got := readMem(t, a, "sessions/s1/transcript.md"); got != one {
		t.Fatalf("a's transcript became %q", got)
	}
	if out := okEnv(t, keyed, a, "search", "caching"); !strings.Contains(out, "caching") {
		t.Fatalf("a does not find b's item: %q", out)
	}
	if out := okEnv(t, keyed, a, "search", "written on b"); !strings.Contains(out, "sessions/s2") {
		t.Fatalf("a does not find b's decrypted transcript: %q", out)
	}
	okEnv(t, unkeyed, b, "sync")
	if treeOf(t, a) != treeOf(t, b) {
		t.Fatal("trees differ after syncing both ways")
	}
	for _, dir := range []string{filepath.Join(a, ".cairn"), filepath.Join(b, ".cairn"), remote} {
		noPlaintext(t, dir)
	}
	if out := okEnv(t, keyed, a, "status"); strings.Contains(out, "transcript") {
		t.Fatalf("a's status after syncs: %q", out)
	}
}
