package crypt

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

func newFilter(t *testing.T, paths []string, keys ...string) (*Filter, string) {
	t.Helper()
	key := filepath.Join(t.TempDir(), "age.key")
	pub, _, err := InitIdentity(key)
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(Config{Paths: paths, Recipients: append([]string{pub}, keys...), Identity: key, Cache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return f, pub
}

func TestMatch(t *testing.T) {
	f, _ := newFilter(t, []string{"sessions/*/transcript.md", "private/"})
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"sessions/s1/transcript.md", true},
		{"sessions/s1/summary.md", false},
		{"sessions/a/b/transcript.md", false},
		{"private/x.md", true},
		{"private/deep/y.md", true},
		{"privately.md", false},
		{"core/facts/x.md", false},
	} {
		if got := f.Match(tc.p); got != tc.want {
			t.Errorf("Match(%q) = %v", tc.p, got)
		}
	}
}

func TestCheckPattern(t *testing.T) {
	for _, p := range []string{"", "/abs", "../up", "a/../b", "bad[", "sessions/["} {
		if CheckPattern(p) == nil {
			t.Errorf("CheckPattern(%q) accepted it", p)
		}
	}
	if _, err := ParseRecipient("age1notakey"); err == nil {
		t.Error("a bad age key was accepted")
	}
}

// TestSSHKey encrypts for an ssh-ed25519 public key and decrypts with
// its OpenSSH private key as the identity file.
func TestSSHKey(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp))) + " me@host"
	f, err := New(Config{Paths: []string{"t.md"}, Recipients: []string{rec}, Identity: key, Cache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Clean("t.md", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.Smudge("t.md", c); err != nil || string(got) != "secret" {
		t.Fatalf("Smudge = %q, %v", got, err)
	}
}

func TestCleanSmudge(t *testing.T) {
	f, _ := newFilter(t, []string{"t.md"})
	plain := []byte("hello, world\n")
	c1, err := f.Clean("t.md", plain)
	if err != nil || !IsCiphertext(c1) || bytes.Contains(c1, plain) {
		t.Fatalf("Clean = %q, %v", c1, err)
	}
	// The same plaintext gives the same ciphertext (the cache); another
	// does not.
	if c2, _ := f.Clean("t.md", plain); !bytes.Equal(c1, c2) {
		t.Fatal("the same plaintext encrypted again")
	}
	if c3, _ := f.Clean("t.md", []byte("other")); bytes.Equal(c1, c3) {
		t.Fatal("another plaintext gave the old ciphertext")
	}
	if c4, _ := f.Clean("t.md", c1); !bytes.Equal(c4, c1) {
		t.Fatal("ciphertext was not passed through")
	}
	got, err := f.Smudge("t.md", c1)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Smudge = %q, %v", got, err)
	}
	// Smudge primes the cache: the plaintext cleans to the blob it came from.
	if c5, _ := f.Clean("t.md", plain); !bytes.Equal(c5, c1) {
		t.Fatal("the smudged plaintext cleaned to a new ciphertext")
	}
	if got, err := f.Smudge("t.md", []byte("stored before encryption")); err != nil || string(got) != "stored before encryption" {
		t.Fatalf("plain blob: %q, %v", got, err)
	}
}

func TestSmudgeErrors(t *testing.T) {
	f, _ := newFilter(t, []string{"t.md"})
	other, otherPub := newFilter(t, []string{"t.md"})
	c, err := other.Clean("t.md", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	noKey, err := New(Config{Paths: []string{"t.md"}, Recipients: []string{otherPub}, Identity: filepath.Join(t.TempDir(), "missing"), Cache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    *Filter
		data []byte
		want string
	}{
		{"wrong key", f, c, "opens none of them"},
		{"no key", noKey, c, "no key file"},
		{"corrupt header", f, []byte("age-encryption.org/v1\n-> X25519 !!\n--- x\nbody"), "damaged age file"},
		{"cut short", other, c[:len(c)-10], "damaged age file"},
	} {
		_, err := tc.f.Smudge("t.md", tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", tc.name, err)
		}
		if tc.name != "corrupt header" && tc.name != "cut short" && !errors.Is(err, ErrNoKey) {
			t.Errorf("%s: not ErrNoKey: %v", tc.name, err)
		}
	}
}

func TestNoRecipients(t *testing.T) {
	f, err := New(Config{Paths: []string{"t.md"}, Cache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Clean("t.md", []byte("x")); err == nil || !strings.Contains(err.Error(), "cairn keys add") {
		t.Fatalf("Clean with no recipients: %v", err)
	}
}

func TestKeyFileMode(t *testing.T) {
	key := filepath.Join(t.TempDir(), "age.key")
	if _, _, err := InitIdentity(key); err != nil {
		t.Fatal(err)
	}
	os.Chmod(key, 0o644)
	if _, err := PublicKey(key); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a key readable by others: %v", err)
	}
}
