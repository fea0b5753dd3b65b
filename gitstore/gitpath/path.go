package gitpath

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// ErrOutside means a path is absolute, climbs out of the work tree, or
// lies inside .git or the state folder.
var ErrOutside = errors.New("path is outside the memory repository")

// StateDir is the work-tree folder for derived, uncommitted state; no
// path a caller names may lie inside it.
const StateDir = ".state"

// ErrBadName means a path has a component no memory file may have: a
// control character, more than MaxNameLen bytes, or nothing but dots
// before its extension ("..md"), which git, the file system or cairn
// would each read differently.
var ErrBadName = errors.New("bad file name")

// MaxNameLen is the longest file or folder name, in bytes, most file
// systems take (NAME_MAX).
const MaxNameLen = 255

// Clean checks a slash-separated repository path and returns it in
// canonical form. It refuses absolute paths, paths that climb out of the
// work tree, paths inside .git or the state folder, and names ValidName
// refuses.
func Clean(p string) (string, error) {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") {
		return "", fmt.Errorf("%q: %w", p, ErrOutside)
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q: %w", p, ErrOutside)
	}
	first, _, _ := strings.Cut(c, "/")
	if first == ".git" || first == StateDir {
		return "", fmt.Errorf("%q: %w", p, ErrOutside)
	}
	if err := Valid(c); err != nil {
		return "", err
	}
	return c, nil
}

// Valid checks every component of a slash-separated repository path
// with ValidName. It is the one check for paths that enter a memory: from
// callers (Clean), from the work tree (a checkpoint's scan) and from
// a remote's trees (gitsync's merge). The error quotes the path with Go
// escapes, so that it prints on one line.
func Valid(p string) error {
	for name := range strings.SplitSeq(p, "/") {
		if why := badName(name); why != "" {
			return fmt.Errorf("%s: %w (%s)", strconv.Quote(p), ErrBadName, why)
		}
	}
	return nil
}

// ValidName checks one file or folder name.
func ValidName(name string) error {
	if why := badName(name); why != "" {
		return fmt.Errorf("%s: %w (%s)", strconv.Quote(name), ErrBadName, why)
	}
	return nil
}

// badName says what is wrong with a name, or "".
func badName(name string) string {
	switch {
	case name == "":
		return "an empty name"
	case len(name) > MaxNameLen:
		return fmt.Sprintf("%d bytes, over %d", len(name), MaxNameLen)
	case strings.Trim(name, ".") == "":
		return "only dots"
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f {
			return "a control character"
		}
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && strings.Trim(name[:i], ".") == "" {
		return "only dots before its extension"
	}
	return ""
}

// UnderPrefix reports whether p is prefix itself or lies below it; the
// empty prefix holds everything.
func UnderPrefix(p, prefix string) bool {
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix) && p[len(prefix)] == '/'
}

// CleanAll checks every path with Clean and returns them in canonical
// form, or the first error.
func CleanAll(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		cp, err := Clean(p)
		if err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	return out, nil
}
