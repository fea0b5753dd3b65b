package gitstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrTagExists is returned when a tag name is taken.
var ErrTagExists = errors.New("tag exists")

// Tag is a named checkpoint.
type Tag struct {
	Name   string
	Commit string
}

// Tag names the commit rev. The caller holds the lock.
func (s *Store) Tag(ctx context.Context, name, rev string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return errors.New("tag: the write lock is not held")
	}
	h, err := s.objs.resolve(rev)
	if err != nil {
		return err
	}
	return s.setTag(name, h, s.now())
}

// Tags lists the named checkpoints by name.
func (s *Store) Tags(ctx context.Context) ([]Tag, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Tag
	for h, names := range s.objs.tags() {
		for _, n := range names {
			out = append(out, Tag{n, h.String()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// ValidTagName reports whether name can be a tag: git's rules, narrowed to
// what is safe and readable as a folder name.
func ValidTagName(name string) error {
	bad := name == "" || len(name) > 100 || strings.HasPrefix(name, "-") || strings.HasPrefix(name, ".") ||
		strings.HasSuffix(name, ".") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".lock") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "/.") || name == "HEAD"
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+@", r)) {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("invalid tag name %q: use letters, digits and . _ - / + @", name)
	}
	return nil
}

func (s *Store) setTag(name string, h plumbing.Hash, t time.Time) error {
	if err := ValidTagName(name); err != nil {
		return err
	}
	ref := plumbing.NewTagReferenceName(name)
	if _, err := s.objs.repo.Storer.Reference(ref); err == nil {
		return fmt.Errorf("tag %q: %w", name, ErrTagExists)
	}
	return s.updateRef(ref, plumbing.ZeroHash, h, "tag", t)
}
