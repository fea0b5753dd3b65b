package gitstore

import (
	"fmt"
	"path"
	"strings"
)

// CleanPath checks a slash-separated repository path and returns it in
// canonical form. It refuses absolute paths, paths that climb out of the
// work tree, and paths inside .git or the state folder.
func CleanPath(p string) (string, error) {
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
	return c, nil
}

// underPrefix reports whether p is prefix itself or lies below it; the
// empty prefix holds everything.
func underPrefix(p, prefix string) bool {
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix) && p[len(prefix)] == '/'
}

// cleanPaths checks every path with CleanPath.
func cleanPaths(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		cp, err := CleanPath(p)
		if err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	return out, nil
}
