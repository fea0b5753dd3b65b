package workdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// DirError is a -C that names no folder: the caller's mistake.
type DirError struct {
	Dir string // -C as given
	Err error  // an *os.PathError of op chdir
}

func (e *DirError) Error() string { return fmt.Sprintf("-C %s: %v", e.Dir, e.Err) }
func (e *DirError) Unwrap() error { return e.Err }

// Resolve returns the folder, absolute and clean: chdir's real path, or
// getwd's answer when chdir is "".
func Resolve(chdir string, getwd func() (string, error)) (string, error) {
	if chdir == "" {
		wd, err := getwd()
		if err != nil {
			return "", fmt.Errorf("find the working directory: %w", err)
		}
		return filepath.Clean(wd), nil
	}
	dir := chdir
	if !filepath.IsAbs(dir) {
		wd, err := getwd()
		if err != nil {
			return "", fmt.Errorf("find the working directory: %w", err)
		}
		// The kernel takes a relative -C from the working directory's
		// real path, not the one $PWD spells with symbolic links.
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			wd = real
		}
		dir = filepath.Join(wd, dir)
	}
	// The folder must exist and be one, and the path the commands see is
	// its real one, which is what getcwd(3) said after a chdir to it.
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(real); err == nil && !fi.IsDir() {
			err = syscall.ENOTDIR
		}
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", &DirError{Dir: chdir, Err: &os.PathError{Op: "chdir", Path: chdir, Err: err}}
	}
	return real, nil
}
