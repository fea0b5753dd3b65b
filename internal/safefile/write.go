package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Sync says what a write survives, beyond the guarantee that a reader
// never sees a part.
type Sync int

const (
	// SyncAll fsyncs the file and its directory: once the write returns,
	// a crash keeps the new content. Write uses it.
	SyncAll Sync = iota
	// SyncFile fsyncs the file but not the directory: a crash leaves the
	// old content or the new, never a part, but may lose the new. For a
	// write followed by another rename that is synced, or a file written
	// again soon anyway.
	SyncFile
	// SyncNone fsyncs nothing: running processes see the old content or
	// the new, but a crash may leave the old, the new, or a damaged file.
	// Only for derived files that are checked when read and rebuilt when
	// lost.
	SyncNone
)

// tmpMark is in the name of every temporary file, after the target's name.
const tmpMark = ".tmp-"

// Write replaces the content of name with data, atomically and durably
// (SyncAll), leaving it with mode perm. Errors say "write <name>: ...".
func Write(name string, data []byte, perm fs.FileMode) error {
	return WriteSync(name, data, perm, SyncAll)
}

// WriteSync is Write with the durability sync.
func WriteSync(name string, data []byte, perm fs.FileMode, sync Sync) error {
	return WriteFunc(name, perm, sync, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is WriteSync with the content written by fill, for content
// that is streamed rather than held. If fill fails, name is left as it
// was and the error, wrapped, is returned.
func WriteFunc(name string, perm fs.FileMode, sync Sync, fill func(w io.Writer) error) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, dirPerm(perm)); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+tmpMark+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, bare(err, dir))
	}
	tmp := f.Name()
	err = fill(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && sync != SyncNone {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, bare(err, dir))
	}
	if sync == SyncAll {
		if err := SyncDir(dir); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

// bare drops from err the name of the temporary file in dir it was about
// (an *fs.PathError of the write, sync or close, a rename's
// *os.LinkError), which the caller's "write <name>: " says better: a full
// disk reads "write <name>: no space left on device", one path, not two.
// What went wrong other than a write is kept ("sync: input/output error").
func bare(err error, dir string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && filepath.Dir(pe.Path) == dir && IsTemp(filepath.Base(pe.Path)) {
		if pe.Op == "write" || pe.Op == "open" {
			return pe.Err
		}
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	var le *os.LinkError
	if errors.As(err, &le) && filepath.Dir(le.Old) == dir && IsTemp(filepath.Base(le.Old)) {
		return fmt.Errorf("%s: %w", le.Op, le.Err)
	}
	return err
}

// SyncDir fsyncs the directory dir, making the names created, renamed or
// removed in it durable. Where directories cannot be synced (Windows) it
// does nothing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// IsTemp reports whether the base name base is that of a temporary file
// of Write: it exists only until its rename, unless a crash came first.
// Scanners skip such files and cleaners may remove old ones.
func IsTemp(base string) bool {
	return strings.HasPrefix(base, ".") && strings.Contains(base, tmpMark)
}

// dirPerm is the mode of the folders made for a file of mode perm: 0700
// for a file private to its owner, 0755 otherwise.
func dirPerm(perm fs.FileMode) fs.FileMode {
	if perm.Perm()&0o077 == 0 {
		return 0o700
	}
	return 0o755
}
