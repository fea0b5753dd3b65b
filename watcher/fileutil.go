package watcher

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tmpMark is in the name of every temporary file this package writes. Such
// names start with a dot, so no folder scan takes them for jobs, and Recover
// removes the ones a crash left behind.
const tmpMark = ".cairn-tmp-"

func isHidden(name string) bool { return strings.HasPrefix(name, ".") }

// writeAtomic writes data to dir/name through a temporary file in dir that
// is synced and renamed over the target, so that a reader sees the old
// content or the new, never a part. With syncDir the directory is synced
// too, so that the new name survives a crash.
func writeAtomic(dir, name string, data []byte, syncDir bool) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(dir, "."+name+tmpMark+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if syncDir {
		return syncPath(dir)
	}
	return nil
}

// syncPath fsyncs a directory, making the names in it durable.
func syncPath(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
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

// names lists the entries of dir that are not hidden, in name order.
func names(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	all, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	out := all[:0]
	for _, n := range all {
		if !isHidden(n) {
			out = append(out, n)
		}
	}
	return out, nil
}
