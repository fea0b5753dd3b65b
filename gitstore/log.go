package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is a checkpoint as read back from history.
type Commit struct {
	Hash     string
	Time     time.Time
	Author   string
	Subject  string
	Body     string
	Trailers []Trailer
	Parents  []string
	Tags     []string
}

// Trailer returns the value of the last trailer named key, or "".
func (c *Commit) Trailer(key string) string {
	v := ""
	for _, t := range c.Trailers {
		if strings.EqualFold(t.Key, key) {
			v = t.Value
		}
	}
	return v
}

// LogOptions filter a log.
type LogOptions struct {
	// From is where the walk starts; empty means HEAD.
	From string
	// N stops after this many matching commits; 0 means all.
	N int
	// Match keeps only the commits it accepts; nil keeps all.
	Match func(*Commit) bool
}

// Log lists checkpoints from newest to oldest, following first parents.
func (s *Store) Log(ctx context.Context, opts LogOptions) ([]Commit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := opts.From
	if from == "" {
		from = "HEAD"
	}
	h, err := s.objs.resolve(from)
	if errors.Is(err, ErrUnknownRev) && opts.From == "" {
		return nil, nil // no commits yet
	}
	if err != nil {
		return nil, err
	}
	tags := s.objs.tags()
	var out []Commit
	for !h.IsZero() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cm, err := object.GetCommit(s.objs.repo.Storer, h)
		if err != nil {
			return nil, fmt.Errorf("log: read commit %s: %w", short(h), err)
		}
		c := toCommit(cm)
		c.Tags = tags[h]
		if opts.Match == nil || opts.Match(&c) {
			out = append(out, c)
			if opts.N > 0 && len(out) >= opts.N {
				break
			}
		}
		if len(cm.ParentHashes) == 0 {
			break
		}
		h = cm.ParentHashes[0]
	}
	return out, nil
}

// Commit reads one commit.
func (s *Store) Commit(ctx context.Context, rev string) (*Commit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cm, err := s.objs.commit(rev)
	if err != nil {
		return nil, err
	}
	c := toCommit(cm)
	c.Tags = s.objs.tags()[cm.Hash]
	return &c, nil
}

// ChangedFiles lists the paths a commit changed against its first parent.
func (s *Store) ChangedFiles(ctx context.Context, rev string) ([]FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cm, err := s.objs.commit(rev)
	if err != nil {
		return nil, err
	}
	var parent plumbing.Hash
	if len(cm.ParentHashes) > 0 {
		parent = cm.ParentHashes[0]
	}
	return s.objs.diffTrees(ctx, parent, cm.Hash, nil)
}

var trailerRE = lazyre.New(`^([A-Za-z][A-Za-z0-9-]*): (.*)$`)

func toCommit(cm *object.Commit) Commit {
	c := Commit{
		Hash:   cm.Hash.String(),
		Time:   cm.Committer.When,
		Author: cm.Author.Name,
	}
	for _, p := range cm.ParentHashes {
		c.Parents = append(c.Parents, p.String())
	}
	msg := strings.TrimRight(cm.Message, "\n")
	subject, rest, _ := strings.Cut(msg, "\n")
	c.Subject = subject
	rest = strings.TrimLeft(rest, "\n")
	paras := strings.Split(rest, "\n\n")
	last := paras[len(paras)-1]
	lines := strings.Split(last, "\n")
	isTrailers := last != ""
	for _, l := range lines {
		if !trailerRE.MatchString(l) {
			isTrailers = false
			break
		}
	}
	if isTrailers {
		for _, l := range lines {
			m := trailerRE.FindStringSubmatch(l)
			c.Trailers = append(c.Trailers, Trailer{Key: m[1], Value: m[2]})
		}
		paras = paras[:len(paras)-1]
	}
	c.Body = strings.TrimSpace(strings.Join(paras, "\n\n"))
	return c
}

// Resolve turns a revision (a commit id or its prefix, a tag, a branch,
// HEAD, HEAD~N) into a full commit id.
func (s *Store) Resolve(rev string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.objs.resolve(rev)
	return h.String(), err
}

// IsAncestor reports whether commit a is in the history of commit b.
func (s *Store) IsAncestor(a, b string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ha, err := s.objs.resolve(a)
	if err != nil {
		return false, err
	}
	hb, err := s.objs.resolve(b)
	if err != nil {
		return false, err
	}
	if ha == hb {
		return true, nil
	}
	ca, err := object.GetCommit(s.objs.repo.Storer, ha)
	if err != nil {
		return false, err
	}
	cb, err := object.GetCommit(s.objs.repo.Storer, hb)
	if err != nil {
		return false, err
	}
	return ca.IsAncestor(cb)
}
