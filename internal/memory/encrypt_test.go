package memory_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

const (
	marker     = "ZEBRA-PLAINTEXT-7431"
	transcript = "sessions/s1/transcript.md"
)

// newKey makes an age identity file and returns its name and public key.
func newKey(t *testing.T) (string, string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "age.key")
	pub, created, err := crypt.InitIdentity(name)
	if err != nil || !created {
		t.Fatalf("init key: %v %v", created, err)
	}
	return name, pub
}

// encrypted makes a memory whose cairn.yaml encrypts transcripts for
// recipients, opened with the key in CAIRN_AGE_IDENTITY; warnings are
// appended to warns.
func encrypted(t *testing.T, warns *[]string, recipients ...string) *memory.Memory {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	ctx := context.Background()
	m, _, err := memory.Init(ctx, t.TempDir(), memory.Options{Identity: memory.Identity{Name: "t", Email: "t@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := m.Dir
	m.Close()
	cfg := "encrypt:\n  paths: [sessions/*/transcript.md]\n  recipients:\n"
	for _, r := range recipients {
		cfg += "    - " + r + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return reopen(t, dir, warns)
}

func reopen(t *testing.T, dir string, warns *[]string) *memory.Memory {
	t.Helper()
	m, err := memory.Open(context.Background(), dir, memory.Options{
		Identity: memory.Identity{Name: "t", Email: "t@example.com"},
		Warn: func(s string) {
			t.Log("warn: " + s)
			if warns != nil {
				*warns = append(*warns, s)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func write(t *testing.T, m *memory.Memory, p, data string) {
	t.Helper()
	name := filepath.Join(m.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func checkpoint(t *testing.T, m *memory.Memory) *gitstore.Checkpoint {
	t.Helper()
	cp, err := m.Checkpoint(context.Background(), memory.CheckpointOptions{})
	if errors.Is(err, gitstore.ErrNothingToDo) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

// noPlaintext fails when any object of the repository holds marker.
func noPlaintext(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch").Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("git cat-file printed nothing")
	}
	if bytes.Contains(out, []byte(marker)) {
		t.Fatalf("an object of %s holds the plaintext", dir)
	}
}

// headBlob reads the raw blob at p in HEAD.
func headBlob(t *testing.T, dir, p string) []byte {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "cat-file", "blob", "HEAD:"+p).Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEncryptRoundTrip(t *testing.T) {
	key, pub := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	m := encrypted(t, nil, pub)
	ctx := context.Background()
	plain := "# Transcript\n\nthe code word is " + marker + "\n"
	write(t, m, transcript, plain)
	write(t, m, "sessions/s1/summary.md", "a summary, stored as it is\n")
	if checkpoint(t, m) == nil {
		t.Fatal("nothing committed")
	}
	noPlaintext(t, m.Dir)
	if b := headBlob(t, m.Dir, transcript); !crypt.IsCiphertext(b) {
		t.Fatalf("HEAD's transcript is not age ciphertext: %q", b[:20])
	}
	if b := headBlob(t, m.Dir, "sessions/s1/summary.md"); crypt.IsCiphertext(b) {
		t.Fatal("a path encrypt.paths does not name was encrypted")
	}
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); string(b) != plain {
		t.Fatalf("work tree holds %q", b)
	}
	if b, err := m.History().ReadFileAt(ctx, "HEAD", transcript); err != nil || string(b) != plain {
		t.Fatalf("ReadFileAt = %q, %v", b, err)
	}

	// The stat data changes, the content does not: encryption is not
	// deterministic, yet nothing is committed.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(m.Dir, transcript), later, later)
	if cp := checkpoint(t, m); cp != nil {
		t.Fatalf("an unchanged encrypted file was committed again: %+v", cp.Changes)
	}
	// A change is committed, encrypted.
	write(t, m, transcript, plain+"more "+marker+"\n")
	if cp := checkpoint(t, m); cp == nil || len(cp.Changes) != 1 {
		t.Fatalf("the change was not committed: %+v", cp)
	}
	noPlaintext(t, m.Dir)

	// Restore writes plaintext back.
	restore(t, m, "HEAD~1")
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); string(b) != plain {
		t.Fatalf("restored %q", b)
	}
}

// restore makes the work tree's transcript what it was at rev.
func restore(t *testing.T, m *memory.Memory, rev string) {
	t.Helper()
	ctx := context.Background()
	unlock, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := m.Store().Restore(ctx, rev, []string{transcript}); err != nil {
		t.Fatal(err)
	}
}

func TestEncryptWrongKey(t *testing.T) {
	key, pub := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	m := encrypted(t, nil, pub)
	write(t, m, transcript, "code word "+marker+"\n")
	checkpoint(t, m)
	stored := headBlob(t, m.Dir, transcript)
	os.Remove(filepath.Join(m.Dir, transcript))
	checkpoint(t, m)
	m.Close()

	other, _ := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", other)
	var warns []string
	m = reopen(t, m.Dir, &warns)
	restore(t, m, "HEAD~1")
	if len(warns) != 1 || strings.Contains(warns[0], "\n") || !strings.Contains(warns[0], transcript) ||
		!strings.Contains(warns[0], "no key here") || !strings.Contains(warns[0], "opens none of them") {
		t.Fatalf("want one clear line, got %q", warns)
	}
	// Nothing is lost: the work tree keeps the ciphertext, which is
	// what HEAD holds, so there is nothing to commit either.
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); !bytes.Equal(b, stored) {
		t.Fatal("the work tree does not hold the stored ciphertext")
	}
	checkpoint(t, m)
	if b := headBlob(t, m.Dir, transcript); !bytes.Equal(b, stored) {
		t.Fatal("a keyless work tree committed another blob")
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(m.Dir, transcript), later, later)
	if cp := checkpoint(t, m); cp != nil {
		t.Fatalf("a keyless work tree committed %+v", cp.Changes)
	}
	if b, err := m.History().ReadFileAt(context.Background(), "HEAD", transcript); err != nil || !bytes.Equal(b, stored) {
		t.Fatalf("ReadFileAt without the key = %v", err)
	}
}

func TestEncryptCorruptHeader(t *testing.T) {
	key, pub := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	var warns []string
	m := encrypted(t, &warns, pub)
	bad := "age-encryption.org/v1\n-> X25519 not-base64!!\n--- garbage\n" + marker
	write(t, m, transcript, bad)
	checkpoint(t, m) // ciphertext, or what looks like it, is stored as it is
	os.Remove(filepath.Join(m.Dir, transcript))
	checkpoint(t, m)
	restore(t, m, "HEAD~1")
	if len(warns) != 1 || strings.Contains(warns[0], "\n") || !strings.Contains(warns[0], "damaged age file") {
		t.Fatalf("want one clear line, got %q", warns)
	}
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); string(b) != bad {
		t.Fatalf("the damaged file was not kept: %q", b)
	}
}

func TestKeysAddRemove(t *testing.T) {
	key, pub := newKey(t)
	key2, pub2 := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	m := encrypted(t, nil, pub)
	ctx := context.Background()
	plain := "code word " + marker + "\n"
	write(t, m, transcript, plain)
	write(t, m, "sessions/s2/transcript.md", plain)
	checkpoint(t, m)
	opens := func(keyFile, p string) bool {
		t.Helper()
		f, err := os.Open(keyFile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ids, err := age.ParseIdentities(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = age.Decrypt(bytes.NewReader(headBlob(t, m.Dir, p)), ids...)
		return err == nil
	}
	if opens(key2, transcript) {
		t.Fatal("key 2 opens a file not encrypted for it")
	}

	cp, err := m.SetRecipients(ctx, []string{pub, pub2}, "keys: add")
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 3 { // cairn.yaml and both transcripts, in one checkpoint
		t.Fatalf("changes %+v", cp.Changes)
	}
	for _, p := range []string{transcript, "sessions/s2/transcript.md"} {
		if !opens(key, p) || !opens(key2, p) {
			t.Fatalf("%s is not encrypted for both keys", p)
		}
	}
	if got := m.Encryption(); len(got.Recipients) != 2 || !got.CanDecrypt {
		t.Fatalf("Encryption() = %+v", got)
	}
	if _, err := m.SetRecipients(ctx, []string{pub2}, "keys: remove"); err != nil {
		t.Fatal(err)
	}
	if opens(key, transcript) || !opens(key2, transcript) {
		t.Fatal("removing key 1 did not re-encrypt for key 2 alone")
	}
	if _, err := m.SetRecipients(ctx, nil, "keys: remove"); err == nil {
		t.Fatal("removing the last recipient of encrypted paths was allowed")
	}
	noPlaintext(t, m.Dir)
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); string(b) != plain {
		t.Fatalf("work tree holds %q", b)
	}
	// The file is still encrypted for the remaining key after a reopen.
	m.Close()
	m = reopen(t, m.Dir, nil)
	if m.Config.Encrypt.Recipients[0] != pub2 {
		t.Fatalf("cairn.yaml recipients %q", m.Config.Encrypt.Recipients)
	}
}

// TestFollowKeys: a memory opened before another process removed a
// recipient (the daemon) never encrypts for it again.
func TestFollowKeys(t *testing.T) {
	key, pub := newKey(t)
	_, pub2 := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	m := encrypted(t, nil, pub, pub2)
	write(t, m, transcript, "one "+marker+"\n")
	checkpoint(t, m)
	daemon := reopen(t, m.Dir, nil)
	if _, err := m.RemoveRecipient(context.Background(), pub2); err != nil {
		t.Fatal(err)
	}
	write(t, daemon, transcript, "two "+marker+"\n")
	if cp := checkpoint(t, daemon); cp == nil {
		t.Fatal("nothing committed")
	}
	if n := bytes.Count(headBlob(t, m.Dir, transcript), []byte("\n-> X25519 ")); n != 1 {
		t.Fatalf("the daemon encrypted for %d recipients, want 1", n)
	}
	noPlaintext(t, m.Dir)
}

// TestHandEdit: encrypt.paths added by hand to a memory that committed
// the file in plain text: the next checkpoint stores it encrypted.
func TestHandEdit(t *testing.T) {
	key, pub := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	t.Setenv("HOME", t.TempDir())
	ctx := context.Background()
	m, _, err := memory.Init(ctx, t.TempDir(), memory.Options{Identity: memory.Identity{Name: "t", Email: "t@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, m, transcript, "plain "+marker+"\n")
	checkpoint(t, m)
	m.Close()
	m = reopen(t, m.Dir, nil)
	cfg, _ := os.ReadFile(filepath.Join(m.Dir, config.File))
	write(t, m, config.File, string(cfg)+"\nencrypt:\n  paths: [sessions/*/transcript.md]\n  recipients: ["+pub+"]\n")
	write(t, m, "core/notes/n.md", "a note\n")
	checkpoint(t, m)
	if b := headBlob(t, m.Dir, transcript); !crypt.IsCiphertext(b) {
		t.Fatal("the transcript committed in plain text was not stored encrypted")
	}
	if b, _ := os.ReadFile(filepath.Join(m.Dir, transcript)); !strings.Contains(string(b), marker) {
		t.Fatal("the work tree lost the plain text")
	}
	if cp := checkpoint(t, m); cp != nil {
		t.Fatalf("committed again: %+v", cp.Changes)
	}
}

// TestEncryptedItemMessage: a checkpoint's message is stored in plain
// text, so an item whose file is encrypted is named there by its id, not
// by its title. Its file name still shows the title's words: paths are
// not encrypted (README, Encryption).
func TestEncryptedItemMessage(t *testing.T) {
	key, pub := newKey(t)
	t.Setenv("CAIRN_AGE_IDENTITY", key)
	m := encrypted(t, nil, pub)
	ctx := context.Background()
	cfg := "encrypt:\n  paths: [core/]\n  recipients:\n    - " + pub + "\n"
	if err := os.WriteFile(filepath.Join(m.Dir, config.File), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	m.Close()
	m = reopen(t, m.Dir, nil)
	checkpoint(t, m)
	it := &model.Item{Kind: model.Fact, Title: "The vault unseal quorum is " + marker, Body: "Three of five holders."}
	cp, err := m.Remember(ctx, it)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := exec.Command("git", "-C", m.Dir, "log", "-1", "--format=%B").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(msg), marker) || !strings.Contains(string(msg), it.ID) {
		t.Errorf("checkpoint %s message names the encrypted item's title:\n%s", cp.Hash, msg)
	}
}
