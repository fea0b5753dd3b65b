package crypt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"filippo.io/age"
	"filippo.io/age/agessh"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// header starts every binary age file (age-encryption.org/v1).
var header = []byte("age-encryption.org/v1\n")

// ErrNoKey means the Filter has no identity that opens a file.
var ErrNoKey = errors.New("no key here")

// IsCiphertext reports whether data is an age file (binary format).
func IsCiphertext(data []byte) bool { return bytes.HasPrefix(data, header) }

// Config says what a Filter encrypts and for whom.
type Config struct {
	// Paths are the repository paths to encrypt: path.Match patterns
	// ("sessions/*/transcript.md"), or folders ending in "/" that
	// take everything below them.
	Paths []string
	// Recipients are age public keys (age1...) or SSH public keys
	// (ssh-ed25519 ..., ssh-rsa ...).
	Recipients []string
	// Identity is the file of the private key; "" means
	// IdentityFile(nil).
	Identity string
	// Cache is the folder of the ciphertext cache (see the package doc).
	Cache string
}

// A Filter encrypts and decrypts the files Config.Paths match. It is
// safe for concurrent use.
type Filter struct {
	paths      []string
	recipients []age.Recipient
	names      []string
	identity   string
	ids        []age.Identity
	idErr      error // why ids is empty
	cache      string
	stamp      []byte // what the cache's entries are keyed with

	mu sync.Mutex // one writer of a cache entry at a time
}

// New returns the Filter for c. An identity file that is missing is not
// an error: such a Filter encrypts but does not decrypt (ErrNoKey). With
// no recipients it refuses to store the files it matches (Clean fails),
// so that cairn keys add can still run.
func New(c Config) (*Filter, error) {
	if len(c.Paths) == 0 {
		return nil, errors.New("encrypt: no paths")
	}
	for _, p := range c.Paths {
		if err := CheckPattern(p); err != nil {
			return nil, err
		}
	}
	f := &Filter{paths: c.Paths, identity: c.Identity, cache: c.Cache}
	if f.identity == "" {
		f.identity = IdentityFile(nil)
	}
	for _, s := range c.Recipients {
		r, err := ParseRecipient(s)
		if err != nil {
			return nil, err
		}
		f.recipients = append(f.recipients, r)
		f.names = append(f.names, short(s))
	}
	sorted := slices.Clone(c.Recipients)
	slices.Sort(sorted)
	f.stamp = []byte(strings.Join(sorted, "\n"))
	f.ids, f.idErr = loadIdentities(f.identity)
	return f, nil
}

// CheckPattern reports a pattern of encrypt.paths that cannot match.
func CheckPattern(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
		return fmt.Errorf("encrypt.paths: %q is not a path inside the memory", p)
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("encrypt.paths: %q: %w", p, err)
	}
	return nil
}

// ParseRecipient parses an age or SSH public key.
func ParseRecipient(s string) (age.Recipient, error) {
	s = strings.TrimSpace(s)
	var (
		r   age.Recipient
		err error
	)
	if strings.HasPrefix(s, "ssh-") {
		r, err = agessh.ParseRecipient(s)
	} else {
		r, err = age.ParseX25519Recipient(s)
	}
	if err != nil {
		return nil, fmt.Errorf("encrypt.recipients: %q is not an age or ssh public key: %w", short(s), err)
	}
	return r, nil
}

// short shortens a key for messages: an SSH key's comment is dropped,
// an age key cut to its start and end.
func short(s string) string {
	f := strings.Fields(s)
	if len(f) >= 2 && strings.HasPrefix(f[0], "ssh-") {
		b := f[1]
		if len(b) > 16 {
			b = b[len(b)-12:]
		}
		return f[0] + " ..." + b
	}
	if len(s) > 20 {
		return s[:10] + "..." + s[len(s)-6:]
	}
	return s
}

// Match reports whether the repository path p is encrypted.
func (f *Filter) Match(p string) bool { return Matches(f.paths, p) }

// Matches reports whether one of the encrypt.paths patterns names the
// memory path p: a pattern ending in "/" takes a folder, any other is a
// path.Match pattern.
func Matches(patterns []string, p string) bool {
	for _, pat := range patterns {
		if strings.HasSuffix(pat, "/") {
			if strings.HasPrefix(p, pat) {
				return true
			}
			continue
		}
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// Clean returns the blob to store for the work-tree file p holding data:
// data itself when it is already age ciphertext, else its encryption,
// the same ciphertext as last time when data and the recipients did not
// change.
func (f *Filter) Clean(p string, data []byte) ([]byte, error) {
	if IsCiphertext(data) {
		return data, nil
	}
	if len(f.recipients) == 0 {
		return nil, fmt.Errorf("%s: not stored: encrypt.paths names it but encrypt.recipients is empty (cairn keys init, then cairn keys add)", p)
	}
	sum := sha256.Sum256(data)
	name := f.entry(p)
	if old, err := os.ReadFile(name); err == nil && len(old) > sha256.Size && bytes.Equal(old[:sha256.Size], sum[:]) {
		return old[sha256.Size:], nil
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, f.recipients...)
	if err != nil {
		return nil, fmt.Errorf("encrypt %s: %w", p, err)
	}
	if _, err := w.Write(data); err != nil {
		return nil, fmt.Errorf("encrypt %s: %w", p, err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("encrypt %s: %w", p, err)
	}
	f.remember(name, sum[:], buf.Bytes())
	return buf.Bytes(), nil
}

// Smudge returns the plaintext of the blob data stored at p. Data that is
// not age ciphertext is returned as it is (a file stored before p was
// encrypted). It fails with ErrNoKey when no identity here opens it, and
// with a one-line error when it is damaged; the caller then keeps the
// ciphertext, so nothing is lost.
func (f *Filter) Smudge(p string, data []byte) ([]byte, error) {
	if !IsCiphertext(data) {
		return data, nil
	}
	if len(f.ids) == 0 {
		return nil, fmt.Errorf("%s: encrypted for %s: %w (%v)", p, strings.Join(f.names, ", "), ErrNoKey, f.idErr)
	}
	r, err := age.Decrypt(bytes.NewReader(data), f.ids...)
	var nomatch *age.NoIdentityMatchError
	if errors.As(err, &nomatch) {
		return nil, fmt.Errorf("%s: encrypted for %s: %w (%s opens none of them)", p, strings.Join(f.names, ", "), ErrNoKey, f.identity)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: damaged age file: %v", p, oneLine(err))
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: damaged age file: %v", p, oneLine(err))
	}
	sum := sha256.Sum256(plain)
	f.remember(f.entry(p), sum[:], data)
	return plain, nil
}

// Recipients returns the recipients, shortened for messages.
func (f *Filter) Recipients() []string { return slices.Clone(f.names) }

// CanDecrypt reports whether an identity was loaded, and why not.
func (f *Filter) CanDecrypt() (bool, error) { return len(f.ids) > 0, f.idErr }

// entry names the cache file of p for the current recipients.
func (f *Filter) entry(p string) string {
	h := sha256.New()
	h.Write(f.stamp)
	h.Write([]byte{0})
	h.Write([]byte(p))
	return filepath.Join(f.cache, hex.EncodeToString(h.Sum(nil)))
}

// remember caches the ciphertext of plaintext sum. The cache only saves
// commits: failing to write it costs a re-encryption, so errors are
// dropped.
func (f *Filter) remember(name string, sum, cipher []byte) {
	if f.cache == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = os.MkdirAll(f.cache, 0o700)
	_ = safefile.WriteSync(name, append(slices.Clone(sum), cipher...), 0o600, safefile.SyncFile)
}

func oneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
