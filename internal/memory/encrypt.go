package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// cryptCache is the state folder's cache of ciphertexts (internal/crypt).
const cryptCache = "crypt"

// encryptFilter returns the Filter for cairn.yaml's encrypt: section in
// dir, nil when it encrypts nothing. Recipients that are not keys are an
// error: storing those files in plain text is what the user asked not to
// happen.
func encryptFilter(dir, identity string) (*crypt.Filter, error) {
	cfg, _, _ := config.Load(filepath.Join(dir, config.File))
	return filterFor(dir, identity, cfg.Encrypt)
}

func filterFor(dir, identity string, e config.Encrypt) (*crypt.Filter, error) {
	if !e.On() {
		return nil, nil
	}
	f, err := crypt.New(crypt.Config{Paths: e.Paths, Recipients: e.Recipients, Identity: identity,
		Cache: filepath.Join(dir, gitstore.StateDir, cryptCache)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, config.File), err)
	}
	return f, nil
}

// SetRecipients makes recs cairn.yaml's encrypt.recipients and
// encrypts every file encrypt.paths matches for them, in one checkpoint
// with cairn.yaml. It refuses a list that leaves encrypted paths with no
// recipient, and a cairn.yaml it cannot read.
func (m *Memory) SetRecipients(ctx context.Context, recs []string, msg string) (*gitstore.Checkpoint, error) {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	old, err := m.store.ReadFile(config.File)
	if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
		return nil, err
	}
	b, err := config.SetRecipients(old, recs)
	if err != nil {
		return nil, err
	}
	cfg, _, err := config.Check(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", config.File, err)
	}
	if cfg.Encrypt.On() && len(cfg.Encrypt.Recipients) == 0 {
		return nil, fmt.Errorf("encrypt.paths needs a recipient (remove encrypt.paths from %s first)", config.File)
	}
	f, err := filterFor(m.Dir, m.ageIdentity, cfg.Encrypt)
	if err != nil {
		return nil, err
	}
	paths := []string{config.File}
	if f != nil {
		matched, err := m.encrypted(f)
		if err != nil {
			return nil, err
		}
		paths = append(paths, matched...)
	}
	if err := m.store.WriteFile(config.File, b); err != nil {
		return nil, err
	}
	var g gitstore.Filter // a nil *crypt.Filter is not a nil Filter
	if f != nil {
		g = f
	}
	m.store.SetFilter(g)
	m.Config.Encrypt = cfg.Encrypt
	if err := m.writeStamp(encStamp(cfg.Encrypt)); err != nil {
		return nil, err
	}
	cp, err := m.checkpoint(ctx, CheckpointOptions{Message: msg, Event: "keys", Paths: paths, Rehash: true})
	if err != nil {
		// Put back the recipients the files are encrypted for.
		if werr := m.store.WriteFile(config.File, old); werr != nil {
			return nil, fmt.Errorf("%w; and putting back %s: %v", err, config.File, werr)
		}
		if f, ferr := filterFor(m.Dir, m.ageIdentity, m.Config.Encrypt); ferr == nil && f != nil {
			m.store.SetFilter(f)
		}
		return nil, err
	}
	return cp, nil
}

// encrypted lists the work tree's files f encrypts.
func (m *Memory) encrypted(f *crypt.Filter) ([]string, error) {
	var out []string
	err := filepath.WalkDir(m.Dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, name)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" || rel == gitstore.StateDir {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && f.Match(rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list encrypted files: %w", err)
	}
	return out, nil
}

// Encryption says how the memory encrypts, for cairn keys list.
type Encryption struct {
	Paths      []string
	Recipients []string
	Identity   string // the private key's file
	Public     string // its public key, "" when there is none
	CanDecrypt bool   // Public is among Recipients
	Problem    string // why there is no key, or it opens nothing
}

// Encryption reports cairn.yaml's encrypt: section and the key here.
func (m *Memory) Encryption() Encryption {
	e := Encryption{Paths: m.Config.Encrypt.Paths, Recipients: m.Config.Encrypt.Recipients, Identity: m.ageIdentity}
	if e.Identity == "" {
		e.Identity = crypt.IdentityFile(nil)
	}
	pub, err := crypt.PublicKey(e.Identity)
	if err != nil {
		e.Problem = err.Error()
		return e
	}
	e.Public = pub
	e.CanDecrypt = slices.Contains(e.Recipients, pub)
	if !e.CanDecrypt {
		e.Problem = "this key is not among the recipients: the files encrypted here cannot be read here"
	}
	return e
}

// AddRecipient adds r (an age or SSH public key) to encrypt.recipients
// and re-encrypts (SetRecipients).
func (m *Memory) AddRecipient(ctx context.Context, r string) (*gitstore.Checkpoint, error) {
	r = strings.TrimSpace(r)
	if _, err := crypt.ParseRecipient(r); err != nil {
		return nil, err
	}
	recs := m.Config.Encrypt.Recipients
	if slices.Contains(recs, r) {
		return nil, fmt.Errorf("%s is a recipient already", r)
	}
	return m.SetRecipients(ctx, append(slices.Clone(recs), r), "keys: add a recipient")
}

// RemoveRecipient removes r from encrypt.recipients and re-encrypts
// (SetRecipients). History keeps what r could read before.
func (m *Memory) RemoveRecipient(ctx context.Context, r string) (*gitstore.Checkpoint, error) {
	r = strings.TrimSpace(r)
	recs := slices.DeleteFunc(slices.Clone(m.Config.Encrypt.Recipients), func(s string) bool { return s == r })
	if len(recs) == len(m.Config.Encrypt.Recipients) {
		return nil, fmt.Errorf("%s is not a recipient (cairn keys list)", r)
	}
	if len(recs) == 0 && m.Config.Encrypt.On() {
		return nil, fmt.Errorf("%s is the last recipient: encrypted paths need one (remove encrypt.paths from %s first)", r, config.File)
	}
	return m.SetRecipients(ctx, recs, "keys: remove a recipient")
}

// FollowEncryption takes cairn.yaml's encrypt: section as the work tree
// now has it (a sync may have brought it, another process changed it)
// when it differs from the one the store follows, and decrypts the
// encrypted files the work tree holds as ciphertext that the key here
// opens. Decrypting changes no blob: the ciphertext cache gives the same
// one back. The next checkpoint stores the files the section newly
// encrypts (or for new recipients) first, in a checkpoint of their own.
// The caller holds the lock.
func (m *Memory) FollowEncryption(ctx context.Context) error {
	_, _, err := m.followEncryption(ctx)
	return err
}

// appliedFile records, in the state folder, the encrypt: section the
// files in HEAD are stored for (encStamp).
const appliedFile = cryptCache + "/applied"

// encStamp names an encrypt: section.
func encStamp(e config.Encrypt) string {
	if !e.On() {
		return "off"
	}
	return strings.Join(e.Paths, "\n") + "\x00" + strings.Join(e.Recipients, "\n")
}

// followEncryption is FollowEncryption; it also returns, when HEAD's
// files are not stored as the section says (pending), the files to
// store again, and the stamp to record once they are.
func (m *Memory) followEncryption(ctx context.Context) (paths []string, stamp string, err error) {
	name := filepath.Join(m.Dir, config.File)
	var seen [2]int64
	if fi, err := os.Stat(name); err == nil {
		seen = [2]int64{fi.ModTime().UnixNano(), fi.Size()}
	}
	m.encMu.Lock()
	same := seen == m.encSeen && seen != [2]int64{}
	m.encSeen = seen
	m.encMu.Unlock()
	if same {
		return nil, "", nil
	}
	cfg, _, _ := config.Load(name)
	changed := !slices.Equal(cfg.Encrypt.Paths, m.Config.Encrypt.Paths) || !slices.Equal(cfg.Encrypt.Recipients, m.Config.Encrypt.Recipients)
	stamp = encStamp(cfg.Encrypt)
	old, _ := os.ReadFile(m.StatePath(appliedFile))
	if !changed && string(old) == stamp {
		return nil, "", nil // the common case: no walk of the work tree
	}
	f, err := filterFor(m.Dir, m.ageIdentity, cfg.Encrypt)
	if err != nil {
		return nil, "", err
	}
	if changed {
		m.Config.Encrypt = cfg.Encrypt
		var g gitstore.Filter // a nil *crypt.Filter is not a nil Filter
		if f != nil {
			g = f
		}
		m.store.SetFilter(g)
	}
	if f == nil {
		// Encryption off: files stay as stored until they change.
		return nil, "", m.writeStamp(stamp)
	}
	matched, err := m.encrypted(f)
	if err != nil {
		return nil, "", err
	}
	if changed {
		for _, p := range matched {
			if err := ctx.Err(); err != nil {
				return nil, "", err
			}
			data, err := m.store.ReadFile(p)
			if err != nil || !crypt.IsCiphertext(data) {
				continue
			}
			plain, err := f.Smudge(p, data)
			if err != nil {
				m.warn(err.Error() + "; the work tree keeps it as stored")
				continue
			}
			if err := m.store.WriteFile(p, plain); err != nil {
				return nil, "", err
			}
		}
	}
	if string(old) == stamp {
		return nil, "", nil
	}
	if len(matched) == 0 {
		return nil, "", m.writeStamp(stamp)
	}
	return matched, stamp, nil
}

func (m *Memory) writeStamp(stamp string) error {
	name := m.StatePath(appliedFile)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return safefile.Write(name, []byte(stamp), 0o600)
}

// storeEncrypted follows cairn.yaml's encrypt: section (followEncryption)
// and, when HEAD's files are not stored as it says, stores them again in
// a checkpoint of their own. The caller holds the lock.
func (m *Memory) storeEncrypted(ctx context.Context) error {
	paths, stamp, err := m.followEncryption(ctx)
	if err != nil || stamp == "" {
		return err
	}
	cp, err := m.store.Checkpoint(ctx, gitstore.CheckpointOptions{
		Subject: fmt.Sprintf("encrypt: store %d files as %s's encrypt: says", len(paths), config.File),
		Trailers: []gitstore.Trailer{
			{Key: TrailerEvent, Value: "keys"},
			{Key: TrailerSchema, Value: strconv.Itoa(model.SchemaVersion)},
		},
		Paths:  paths,
		Rehash: true,
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return fmt.Errorf("store encrypted files: %w", err)
	}
	if err == nil {
		m.afterCheckpoint(ctx, cp)
	}
	return m.writeStamp(stamp)
}

// warnOnceNoKey passes on the first warning that a file cannot be
// decrypted here, and drops the others: a clone without the key would
// otherwise print one line per encrypted file.
func warnOnceNoKey(warn func(string)) func(string) {
	if warn == nil {
		return nil
	}
	var said atomic.Bool
	return func(msg string) {
		if strings.Contains(msg, crypt.ErrNoKey.Error()) {
			if said.Swap(true) {
				return
			}
			msg += " (and any other file encrypted for others)"
		}
		warn(msg)
	}
}

// subject names an item in a checkpoint's message: its kind and title,
// or its kind and id when its file p is encrypted, since the message is
// stored in plain text.
func (m *Memory) subject(kind model.Kind, title, id, p string) string {
	if crypt.Matches(m.Config.Encrypt.Paths, p) {
		return fmt.Sprintf("%s %s (encrypted)", kind, id)
	}
	return fmt.Sprintf("%s %q", kind, title)
}
