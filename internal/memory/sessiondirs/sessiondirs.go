package sessiondirs

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
)

// Archived returns, in path order, what filepath.Glob(filepath.Join(dir,
// "archive", "*", "*", id, tail...)) returns for a checked session id (no
// pattern characters): the month folders are listed and the path looked
// up in each, where Glob lists every month folder's sessions to match
// their names with id. At 100,000 files that is 19,000 names read and
// matched at each session start, for the one session it looks for.
func Archived(dir, id string, tail ...string) []string {
	var out []string
	root := filepath.Join(dir, model.ArchiveRoot)
	for _, y := range Names(root) {
		for _, mo := range Names(filepath.Join(root, y)) {
			p := filepath.Join(append([]string{root, y, mo, id}, tail...)...)
			if _, err := os.Lstat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out) // as the callers sorted Glob's paths
	return out
}

// Names returns the sorted names in the folder at name, none when
// it is no folder or cannot be read: what filepath.Glob lists.
func Names(name string) []string {
	ents, err := os.ReadDir(name)
	if err != nil {
		return nil
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}

// Files returns what filepath.Glob(filepath.Join(dir, "sessions",
// "*", "session.yaml")) returns, given the catalogue's rows of sessions/
// up to date with the work tree: a folder whose session.yaml has a row
// holds one (the catalogue looked at it as a regular file, reached
// through no link), and only the other folders are looked into, as Glob
// looks into every one (a linked folder, one whose session.yaml is no
// regular file or cannot be read, or has none: what the rows cannot say).
func Files(dir string, rows []*catalog.Row) []string {
	described := make(map[string]bool, len(rows)/4)
	for _, r := range rows {
		rest, ok := strings.CutPrefix(r.Path, model.SessionsRoot+"/")
		if id, name, ok2 := strings.Cut(rest, "/"); ok && ok2 && name == model.SessionFile {
			described[id] = true
		}
	}
	root := filepath.Join(dir, model.SessionsRoot)
	var out []string
	for _, name := range Names(root) {
		p := filepath.Join(root, name, model.SessionFile)
		if described[name] {
			out = append(out, p)
		} else if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}
