package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Restore makes the work tree under paths (all of it when paths is empty)
// what it was at rev, and returns the paths it changed. History is not
// touched: the caller checkpoints the result as a new commit. Changes not
// yet checkpointed under paths are overwritten, so the caller checkpoints
// them first. The caller holds the lock.
func (s *Store) Restore(ctx context.Context, rev string, paths []string) ([]FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return nil, errors.New("restore: the write lock is not held")
	}
	roots, err := gitpath.CleanAll(paths)
	if err != nil {
		return nil, err
	}
	target, err := s.objs.resolve(rev)
	if err != nil {
		return nil, err
	}
	_, head, err := s.objs.head()
	if err != nil {
		return nil, err
	}
	for _, r := range roots {
		if !s.objs.hasPath(target, r) && !s.objs.hasPath(head, r) {
			return nil, fmt.Errorf("restore %s: %s is in neither %s nor HEAD: %w", rev, r, rev, ErrNotFound)
		}
	}
	fcs, err := s.objs.diffTrees(ctx, head, target, roots)
	if err != nil {
		return nil, fmt.Errorf("restore %s: %w", rev, err)
	}
	// A link from history (committed with the git CLI, or brought by a
	// remote) is never written: cairn follows no link in the memory, and
	// one written here could point anywhere. Refused before any file is
	// written, so that a restore is all or nothing.
	for _, fc := range fcs {
		if _, mode, err := s.objs.blobAt(target, fc.Path); err == nil && mode == filemode.Symlink {
			return nil, fmt.Errorf("restore %s: %s is a symbolic link there, which cairn does not write into the memory (git checkout %s -- %s, if you mean it)", rev, fc.Path, rev, fc.Path)
		}
	}
	for _, fc := range fcs {
		name := filepath.Join(s.dir, filepath.FromSlash(fc.Path))
		h, mode, err := s.objs.blobAt(target, fc.Path)
		if err != nil {
			return nil, err
		}
		if h.IsZero() {
			if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("restore %s: %w", fc.Path, err)
			}
			continue
		}
		data, err := s.objs.blob(h)
		if err != nil {
			return nil, err
		}
		data = s.wt.smudgeWarn(fc.Path, data)
		perm := os.FileMode(FilePerm)
		if mode == filemode.Executable {
			perm = ExecPerm
		}
		if err := safefile.Write(name, data, perm); err != nil {
			return nil, fmt.Errorf("restore: %w", err)
		}
	}
	return fcs, nil
}
