package codegit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// Exclude adds patterns[0] to the .git/info/exclude of the project's
// repository (its common folder, for a worktree), which is never
// committed, so that the user's tracked files (.gitignore included) stay
// untouched. comment goes on the line before. Nothing changes when the
// project is no git repository or the line is there; it returns the file
// it changed. A line with any of patterns counts as there: the
// other spellings a person may have written.
func Exclude(project string, patterns []string, comment string) (string, error) {
	gitDir := filepath.Join(project, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return "", nil // not a git repository: nothing to keep out of
	}
	if !fi.IsDir() {
		b, err := os.ReadFile(gitDir)
		if err != nil {
			return "", nil
		}
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return "", nil
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(project, d)
		}
		gitDir = d
		if c, err := os.ReadFile(filepath.Join(d, "commondir")); err == nil {
			cd := strings.TrimSpace(string(c))
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(d, cd)
			}
			gitDir = cd
		}
	}
	name := filepath.Join(gitDir, "info", "exclude")
	b, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	for l := range strings.Lines(string(b)) {
		if slices.Contains(patterns, strings.TrimSpace(l)) {
			return "", nil
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	b = append(b, comment+"\n"+patterns[0]+"\n"...)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", err
	}
	if err := safefile.Write(name, b, 0o644); err != nil {
		return "", err
	}
	return name, nil
}
