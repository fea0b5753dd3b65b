package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/crypt"
)

// cryptCache is the state folder's cache of ciphertexts (internal/crypt).
const cryptCache = "crypt"

// encryptFilter returns the Filter for cairn.yaml's encrypt: section in
// dir, nil when it encrypts nothing. A section that names paths but no
// usable recipient is an error: storing those files in plain text is
// what the user asked not to happen.
func encryptFilter(dir string) (*crypt.Filter, error) {
	cfg, _, _ := config.Load(filepath.Join(dir, config.File))
	return filterFor(dir, cfg.Encrypt)
}

func filterFor(dir string, e config.Encrypt) (*crypt.Filter, error) {
	if !e.On() {
		return nil, nil
	}
	f, err := crypt.New(crypt.Config{Paths: e.Paths, Recipients: e.Recipients,
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
	f, err := filterFor(m.Dir, cfg.Encrypt)
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
	return m.checkpoint(ctx, CheckpointOptions{Message: msg, Event: "keys", Paths: paths, Rehash: true})
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
	e := Encryption{Paths: m.Config.Encrypt.Paths, Recipients: m.Config.Encrypt.Recipients, Identity: crypt.IdentityFile()}
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
