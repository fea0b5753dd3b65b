package refs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Update moves ref in the repository whose .git folder is gitDir from old
// to new the way git does: write ref.lock, check that the ref (read
// through st) still holds old, fsync, rename over the ref, and append line
// to the ref's reflog, and to HEAD's when HEAD points at ref. The zero
// hash as old means the ref must not exist yet. line is a whole reflog
// line, newline included.
func Update(gitDir string, st storer.ReferenceStorer, ref plumbing.ReferenceName, old, new plumbing.Hash, line string) error {
	name := filepath.Join(gitDir, filepath.FromSlash(ref.String()))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	lockName := name + ".lock"
	f, err := CreateLock(lockName)
	if err != nil {
		return fmt.Errorf("update %s: %w (is a git command running in %s?)", ref, err, filepath.Dir(gitDir))
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(lockName)
		return fmt.Errorf("update %s: %w", ref, err)
	}
	cur, err := st.Reference(ref)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		if !old.IsZero() {
			return fail(fmt.Errorf("it vanished; expected %s", old))
		}
	case err != nil:
		return fail(err)
	case cur.Hash() != old:
		return fail(fmt.Errorf("it moved to %s; expected %s", cur.Hash(), old))
	}
	if _, err := f.WriteString(new.String() + "\n"); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(lockName)
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if err := os.Rename(lockName, name); err != nil {
		os.Remove(lockName)
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if err := safefile.SyncDir(filepath.Dir(name)); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	logs := []string{ref.String()}
	if head, err := st.Reference(plumbing.HEAD); err == nil && head.Target() == ref {
		logs = append(logs, "HEAD")
	}
	for _, l := range logs {
		// The reflog is a convenience for git users; the ref is already moved.
		_ = appendLine(filepath.Join(gitDir, "logs", filepath.FromSlash(l)), line)
	}
	return nil
}

// CreateLock creates a git lock file (ref.lock, index.lock). The caller
// holds cairn's own lock, so an existing one belongs to a git command that
// will be done in a moment, or to a process that died holding it: wait a
// little, then treat it as stale.
func CreateLock(name string) (*os.File, error) {
	deadline := time.Now().Add(time.Second)
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
		if time.Now().After(deadline) {
			if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			deadline = time.Now().Add(time.Second)
			continue
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appendLine appends line to the file name, making it and its folder.
func appendLine(name, line string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteLocked replaces the git file name (.git/index) the way git does:
// its content goes to name.lock, created exclusively, which is then
// renamed over name, so that a git command at the same moment is not
// overwritten.
func WriteLocked(name string, parts [][]byte) error {
	lock := name + ".lock"
	f, err := CreateLock(lock)
	if err != nil {
		return err
	}
	for _, b := range parts {
		if _, err := f.Write(b); err != nil {
			f.Close()
			os.Remove(lock)
			return err
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(lock)
		return err
	}
	return os.Rename(lock, name)
}
