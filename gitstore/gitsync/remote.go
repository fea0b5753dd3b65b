package gitsync

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/ssh"
)

// Errors of remote configuration.
var (
	ErrNoRemote     = errors.New("no such remote")
	ErrRemoteExists = errors.New("remote already exists")
	ErrBadURL       = errors.New("unsupported remote URL")
)

// CredentialsFile is the state file holding tokens for https remotes, one
// "HOST TOKEN" a line (HOST as in the URL, with its port if the URL has
// one). A line without a host is ignored: a token meant for one server
// must not go to whichever server a remote names. It must not be readable
// by others.
const CredentialsFile = "credentials"

// TokenEnv is the environment variable that holds a token for https
// remotes; it wins over the credentials file. No token is ever sent over
// plain http, where anyone on the way could read it.
const TokenEnv = "CAIRN_GIT_TOKEN"

// Remote is a configured remote repository. Remotes live in .git/config,
// so plain git sees them too.
type Remote struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

var remoteName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidRemoteName reports whether name can name a remote.
func ValidRemoteName(name string) error {
	if !remoteName.MatchString(name) || strings.HasSuffix(name, ".lock") || strings.Contains(name, "..") {
		return fmt.Errorf("remote name %q: want 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit", name)
	}
	return nil
}

// CheckURL checks that url names a remote cairn can reach: ssh
// (ssh://, user@host:path), https, http, git:// or a local path (file://
// or a plain path, made absolute: a relative one is taken from base, the
// absolute folder the user works in).
func CheckURL(url, base string) (string, error) {
	if url == "" || strings.ContainsAny(url, "\x00\n\r") {
		return "", fmt.Errorf("%q: %w", Redact(url), ErrBadURL)
	}
	if i := strings.Index(url, "://"); i > 0 {
		switch strings.ToLower(url[:i]) {
		case "ssh", "git+ssh", "https", "http", "git", "file":
		default:
			return "", fmt.Errorf("%s: %w: scheme %q (want ssh, https, http, git, file or a path)", Redact(url), ErrBadURL, url[:i])
		}
		if _, err := transport.NewEndpoint(url); err != nil {
			return "", fmt.Errorf("%s: %w: %w", Redact(url), ErrBadURL, scrub(err, url))
		}
		return url, nil
	}
	ep, err := transport.NewEndpoint(url)
	if err != nil {
		return "", fmt.Errorf("%s: %w: %w", Redact(url), ErrBadURL, scrub(err, url))
	}
	if ep.Protocol == "file" {
		if filepath.IsAbs(url) {
			return filepath.Clean(url), nil
		}
		if !filepath.IsAbs(base) {
			return "", fmt.Errorf("%s: %w: a relative path, and no folder to take it from", Redact(url), ErrBadURL)
		}
		return filepath.Join(base, url), nil
	}
	return url, nil
}

// Remotes lists the configured remotes of s, by name.
func Remotes(s *gitstore.Store) ([]Remote, error) {
	var cfg *config.Config
	err := s.WithRepo(func(r *git.Repository) (err error) {
		cfg, err = r.Config()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read remotes of %s: %w", s.Dir(), err)
	}
	var out []Remote
	for name, rc := range cfg.Remotes {
		r := Remote{Name: name}
		if len(rc.URLs) > 0 {
			r.URL = rc.URLs[0]
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// LookupRemote returns the remote of s called name.
func LookupRemote(s *gitstore.Store, name string) (Remote, error) {
	rs, err := Remotes(s)
	if err != nil {
		return Remote{}, err
	}
	for _, r := range rs {
		if r.Name == name {
			return r, nil
		}
	}
	return Remote{}, fmt.Errorf("remote %q: %w", name, ErrNoRemote)
}

// AddRemote configures a remote of s; a relative local path in url is
// taken from base (see CheckURL). The caller holds the lock.
func AddRemote(s *gitstore.Store, name, url, base string) (Remote, error) {
	if err := ValidRemoteName(name); err != nil {
		return Remote{}, err
	}
	url, err := CheckURL(url, base)
	if err != nil {
		return Remote{}, err
	}
	err = s.WithRepo(func(r *git.Repository) error {
		_, err := r.CreateRemote(&config.RemoteConfig{
			Name:  name,
			URLs:  []string{url},
			Fetch: []config.RefSpec{config.RefSpec(fmt.Sprintf("+refs/heads/*:refs/remotes/%s/*", name))},
		})
		return err
	})
	if errors.Is(err, git.ErrRemoteExists) {
		return Remote{}, fmt.Errorf("remote %q: %w", name, ErrRemoteExists)
	}
	if err != nil {
		return Remote{}, fmt.Errorf("add remote %q: %w", name, err)
	}
	return Remote{Name: name, URL: url}, nil
}

// RemoveRemote deletes a remote of s and what was fetched from it. The
// caller holds the lock.
func RemoveRemote(s *gitstore.Store, name string) error {
	return s.WithRepo(func(r *git.Repository) error { return removeRemote(r, name) })
}

func removeRemote(repo *git.Repository, name string) error {
	err := repo.DeleteRemote(name)
	if errors.Is(err, git.ErrRemoteNotFound) {
		return fmt.Errorf("remote %q: %w", name, ErrNoRemote)
	}
	if err != nil {
		return fmt.Errorf("remove remote %q: %w", name, err)
	}
	refs, err := repo.Storer.IterReferences()
	if err != nil {
		return nil
	}
	prefix := "refs/remotes/" + name + "/"
	var drop []plumbing.ReferenceName
	refs.ForEach(func(r *plumbing.Reference) error {
		if strings.HasPrefix(r.Name().String(), prefix) {
			drop = append(drop, r.Name())
		}
		return nil
	})
	for _, r := range drop {
		// A tracking ref left behind is harmless: report nothing.
		_ = repo.Storer.RemoveReference(r)
	}
	return nil
}

// auth chooses how to log in to url: for https, a token from
// getenv(TokenEnv) or the credentials file; for ssh, the ssh agent when
// one runs, else the user's key files; nothing for http (a token would
// travel in clear), git:// and paths.
func auth(s *gitstore.Store, url string, getenv func(string) string) (transport.AuthMethod, error) {
	ep, err := transport.NewEndpoint(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", Redact(url), ErrBadURL, scrub(err, url))
	}
	switch ep.Protocol {
	case "https":
		if ep.User != "" || ep.Password != "" {
			return nil, nil // in the URL: go-git uses it
		}
		tok := ""
		if getenv != nil {
			tok = strings.TrimSpace(getenv(TokenEnv))
		}
		if tok == "" {
			if tok, err = fileToken(s, ep.Host, ep.Port); err != nil {
				return nil, err
			}
		}
		if tok == "" {
			return nil, nil
		}
		// GitHub, GitLab and Gitea take a token as the password of any user.
		return &http.BasicAuth{Username: "cairn", Password: tok}, nil
	case "ssh":
		user := ep.User
		if user == "" {
			user = "git"
		}
		if getenv != nil && getenv("SSH_AUTH_SOCK") != "" {
			if a, err := ssh.NewSSHAgentAuth(user); err == nil {
				return a, nil
			}
		}
		home := ""
		if getenv != nil {
			home = getenv("HOME")
		}
		for _, k := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			name := filepath.Join(home, ".ssh", k)
			if _, err := os.Stat(name); err != nil {
				continue
			}
			a, err := ssh.NewPublicKeysFromFile(user, name, "")
			if err != nil {
				return nil, fmt.Errorf("ssh key %s: %w (load it into ssh-agent if it has a passphrase)", name, err)
			}
			return a, nil
		}
		return nil, nil
	}
	return nil, nil
}

// fileToken reads the token for host (and port) from the credentials
// file, refusing a file others can read.
func fileToken(s *gitstore.Store, host string, port int) (string, error) {
	name := s.StatePath(CredentialsFile)
	fi, err := os.Stat(name)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("credentials: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("credentials %s: mode %o lets others read it; run chmod 600 %s", name, fi.Mode().Perm(), name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("credentials: %w", err)
	}
	withPort := fmt.Sprintf("%s:%d", host, port)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 2 && (strings.EqualFold(f[0], host) || port > 0 && strings.EqualFold(f[0], withPort)) {
			return f[1], nil
		}
	}
	return "", nil
}

// Redact returns a remote URL fit to print: without the password of a
// URL that has one (https://user:secret@host/ gives https://user:xxxxx@host/).
// What cannot be parsed as a URL (user@host:path) holds no password and is
// returned as it is.
func Redact(raw string) string {
	u, err := neturl.Parse(raw)
	if err == nil {
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
		return raw
	}
	// Unparseable, yet it may hold "user:secret@": cut the user part.
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			return scheme + "://xxxxx@" + rest[at+1:]
		}
	}
	return raw
}

// scrub returns err with the password of the URL raw, where err's message
// shows it (net/url, go-git and servers quote the URL), replaced by xxxxx;
// errors.Is and errors.As still see err.
func scrub(err error, raw string) error {
	if err == nil {
		return nil
	}
	u, perr := neturl.Parse(raw)
	if perr != nil || u.User == nil {
		// Unparseable: hide whatever stands between :// and the last @.
		_, rest, ok := strings.Cut(raw, "://")
		at := strings.LastIndex(rest, "@")
		if !ok || at <= 0 || !strings.Contains(err.Error(), rest[:at]) {
			return err
		}
		return &scrubbed{strings.ReplaceAll(err.Error(), rest[:at], "xxxxx"), err}
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" {
		return err
	}
	msg := err.Error()
	for _, p := range []string{pw, neturl.QueryEscape(pw), neturl.PathEscape(pw)} {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
	}
	if msg == err.Error() {
		return err
	}
	return &scrubbed{msg, err}
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }
