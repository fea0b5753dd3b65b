package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cairn-mem/cairn/internal/crypt"
)

// FindEnv finds the memory the way git finds a repository: cairnDir
// (CAIRN_DIR: the memory, or a folder holding it in .cairn), else wd and
// its parents. A relative cairnDir is taken from wd, the folder commands
// work in.
func FindEnv(cairnDir, wd string) (string, error) {
	if cairnDir == "" {
		return Find(wd)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	for _, c := range []string{cairnDir, filepath.Join(cairnDir, DirName)} {
		c = abs(c)
		if fi, err := os.Stat(filepath.Join(c, ".git")); err == nil && fi.IsDir() {
			return c, nil
		}
	}
	// The folder as looked for, absolute.
	return "", fmt.Errorf("CAIRN_DIR=%s (%s): %w", cairnDir, abs(cairnDir), ErrNoMemory)
}

// EnvOptions are the Options a command's environment sets: the author
// (CAIRN_AUTHOR_NAME, CAIRN_AUTHOR_EMAIL; gitstore completes it) and
// CAIRN_LOCK_TIMEOUT, a duration or seconds.
func EnvOptions(getenv func(string) string) Options {
	var opts Options
	opts.Identity = Identity{Name: getenv("CAIRN_AUTHOR_NAME"), Email: getenv("CAIRN_AUTHOR_EMAIL")}
	opts.AgeIdentity = crypt.IdentityFile(getenv)
	if v := getenv("CAIRN_LOCK_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			opts.LockTimeout = d
		} else if s, err := strconv.ParseFloat(v, 64); err == nil {
			opts.LockTimeout = time.Duration(s * float64(time.Second))
		}
	}
	return opts
}
