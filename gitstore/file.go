package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to name through a temporary file in the same
// directory, fsync and rename, so that readers and a crash see either the
// old content or the new, never a part. Missing parent directories are
// created.
func WriteFileAtomic(name string, data []byte, perm os.FileMode) error {
	return writeFile(name, data, perm, true)
}

// WriteFileRename is WriteFileAtomic without the fsync, for derived files
// that are checksummed or rebuilt when lost: readers see the old content
// or the new, but a crash may lose the new.
func WriteFileRename(name string, data []byte, perm os.FileMode) error {
	return writeFile(name, data, perm, false)
}

func writeFile(name string, data []byte, perm os.FileMode, sync bool) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
