package crypt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"filippo.io/age/agessh"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// IdentityFile is where the private key is: $CAIRN_AGE_IDENTITY, else
// $XDG_CONFIG_HOME/cairn/age.key or ~/.config/cairn/age.key. It lives
// outside the memory, which syncs. getenv reads the environment (nil:
// os.Getenv).
func IdentityFile(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if p := getenv("CAIRN_AGE_IDENTITY"); p != "" {
		return p
	}
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cairn", "age.key")
	}
	return filepath.Join(getenv("HOME"), ".config", "cairn", "age.key")
}

// InitIdentity makes an age identity in file unless one is there, and
// returns the public key (the recipient) of the identity in file.
func InitIdentity(file string) (recipient string, created bool, err error) {
	if _, err := os.Stat(file); err == nil {
		r, err := PublicKey(file)
		return r, false, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return "", false, fmt.Errorf("make a key: %w", err)
	}
	body := fmt.Sprintf("# cairn age identity; public key: %s\n%s\n", id.Recipient(), id)
	if err := safefile.Write(file, []byte(body), 0o600); err != nil {
		return "", false, fmt.Errorf("write key %s: %w", file, err)
	}
	return id.Recipient().String(), true, nil
}

// PublicKey returns the recipient of the first age identity in file.
func PublicKey(file string) (string, error) {
	ids, err := loadIdentities(file)
	if err != nil {
		return "", err
	}
	if x, ok := ids[0].(*age.X25519Identity); ok {
		return x.Recipient().String(), nil
	}
	return "", fmt.Errorf("%s: an SSH key; its public key is in the .pub file beside it", file)
}

// loadIdentities reads an age identity file (age-keygen's format) or an
// unencrypted SSH private key. The file must not be readable by others.
func loadIdentities(file string) ([]age.Identity, error) {
	fi, err := os.Stat(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no key file %s (cairn keys init makes one)", file)
	}
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", file, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("key %s is readable by others (mode %o); chmod 600 it", file, fi.Mode().Perm())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", file, err)
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("-----BEGIN")) {
		id, err := agessh.ParseIdentity(data)
		if err != nil {
			return nil, fmt.Errorf("key %s: %v", file, oneLine(err))
		}
		return []age.Identity{id}, nil
	}
	ids, err := age.ParseIdentities(strings.NewReader(string(data)))
	if err != nil {
		return nil, fmt.Errorf("key %s: %v", file, oneLine(err))
	}
	return ids, nil
}
