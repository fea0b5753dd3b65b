package corecache

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Item is what ranking core memory needs of an item, read cheaply.
type Item struct {
	Path, ID, Title string
	Kind            string
	Importance      float64
	Pinned          bool
	Updated         time.Time
	Supersedes      string // the id of the item this one replaced, if any
	Session         string // the session it came from, if any
}

// Candidates returns the core items' ranking keys. They are kept in
// .state/core.tsv with the commit they reflect, and brought up to HEAD
// from the diff, so that a context pack reads one small file rather than
// every core item; a long-running process keeps them in memo as well.
// Files that do not parse are still candidates, as plain text.
func Candidates(ctx context.Context, m *memory.Memory, memo *Memo) ([]Item, error) {
	head, err := m.History().Resolve("HEAD")
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	if memo != nil {
		memo.mu.Lock()
		defer memo.mu.Unlock()
		if memo.commit == head {
			return slices.Clone(memo.items), nil
		}
	}
	items, err := loadCoreCache(ctx, m, head)
	if err != nil {
		return nil, err
	}
	if memo != nil {
		memo.commit, memo.items = head, items
		items = slices.Clone(items)
	}
	return items, nil
}

// Memo holds the core items' keys as of a commit.
type Memo struct {
	mu     sync.Mutex
	commit string
	items  []Item
}

// File holds the core items' ranking keys as of a commit:
// a first line "cairn-core 3 COMMIT", then a line per item of tab-separated
// path, id, importance, pinned (0 or 1), updated (Unix seconds, 0 if
// unknown), kind, title, the id it supersedes and the session it came
// from. Derived: a damaged one is made again, and so is one of an older
// version (1 followed symbolic links, 2 lacked supersedes, 3 the session).
const File = "core.tsv"

func loadCoreCache(ctx context.Context, m *memory.Memory, head string) ([]Item, error) {
	name := m.StatePath(File)
	items, commit, ok := readCoreCache(name)
	if ok && commit == head {
		return items, nil
	}
	if ok {
		if diffs, err := m.History().Diff(ctx, memory.DiffOptions{From: commit, To: head, Paths: []string{"core"}}); err == nil {
			byPath := make(map[string]Item, len(items))
			for _, c := range items {
				byPath[c.Path] = c
			}
			for _, d := range diffs {
				delete(byPath, d.Path)
				if d.Action != memory.Deleted && d.New != nil && docs.Indexable(d.Path) {
					byPath[d.Path] = Meta(d.Path, d.New)
				}
			}
			items = items[:0]
			for _, c := range byPath {
				items = append(items, c)
			}
			sortCore(items)
			writeCoreCache(name, head, items)
			return items, nil
		}
	}
	items = items[:0]
	// Neither the walk nor the reads follow a symbolic link.
	err := m.WalkFiles(ctx, "core", func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != "core" {
				return filepath.SkipDir
			}
			return nil
		}
		if !docs.Indexable(p) {
			return nil
		}
		data, err := readMemory(m, p)
		if err != nil {
			return nil // gone meanwhile, or unreadable: not packed
		}
		items = append(items, Meta(p, data))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("context: read core memory: %w", err)
	}
	sortCore(items)
	writeCoreCache(name, head, items)
	return items, nil
}

// sortCore orders items by path, so that equal ranks keep one order.
func sortCore(items []Item) {
	sort.Slice(items, func(i, j int) bool { return items[i].Path < items[j].Path })
}

func readCoreCache(name string) (items []Item, commit string, ok bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, "", false
	}
	text := string(b)
	first, rest, _ := strings.Cut(text, "\n")
	commit, found := strings.CutPrefix(first, "cairn-core 4 ")
	if !found || commit == "" {
		return nil, "", false
	}
	for line := range strings.Lines(rest) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 9 {
			return nil, "", false
		}
		imp, err1 := strconv.ParseFloat(f[2], 64)
		upd, err2 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, "", false
		}
		c := Item{Path: f[0], ID: f[1], Importance: imp, Pinned: f[3] == "1", Kind: f[5], Title: f[6], Supersedes: f[7], Session: f[8]}
		if upd != 0 {
			c.Updated = time.Unix(upd, 0).UTC()
		}
		items = append(items, c)
	}
	return items, commit, true
}

// writeCoreCache writes the cache; failing to is no error, only slower
// next time.
func writeCoreCache(name, commit string, items []Item) {
	var b strings.Builder
	b.WriteString("cairn-core 4 " + commit + "\n")
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, c := range items {
		pinned, upd := "0", int64(0)
		if c.Pinned {
			pinned = "1"
		}
		if !c.Updated.IsZero() {
			upd = c.Updated.Unix()
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", clean.Replace(c.Path), clean.Replace(c.ID),
			strconv.FormatFloat(c.Importance, 'g', -1, 64), pinned, upd, clean.Replace(c.Kind), clean.Replace(c.Title), clean.Replace(c.Supersedes), clean.Replace(c.Session))
	}
	safefile.WriteSync(name, []byte(b.String()), 0o600, safefile.SyncNone)
}

// Meta reads the keys that rank a core item from its front matter
// line by line, and parses the whole item only when a key is written in
// a way the line reader does not follow (quotes, block or flow values).
func Meta(p string, data []byte) Item {
	c := Item{Path: p, Importance: model.DefaultImportance}
	c.ID, _ = model.IDFromPath(p)
	text := strings.TrimPrefix(string(data), "\uFEFF")
	first, rest, ok := strings.Cut(text, "\n")
	simple := ok && model.IsDelimiter(strings.TrimSuffix(first, "\r"))
	if simple {
		sc := bufio.NewScanner(strings.NewReader(rest))
		sc.Buffer(nil, 1<<20)
		closed := false
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if model.IsDelimiter(line) {
				closed = true
				break
			}
			key, val, ok := strings.Cut(line, ":")
			if !ok || key != strings.TrimSpace(key) {
				continue // nested or continued values: not a ranking key
			}
			val = strings.TrimSpace(val)
			if i := strings.Index(val, " #"); i >= 0 {
				val = strings.TrimSpace(val[:i])
			}
			if val != "" && strings.ContainsAny(val[:1], `'"|>[{&*!`) && (key == "title" || key == "importance" || key == "pinned" || key == "updated" || key == "id") {
				simple = false
				break
			}
			var err error
			switch key {
			case "id":
				if v := strings.ToUpper(val); model.ValidID(v) {
					c.ID = v
				}
			case "title":
				c.Title = val
			case "kind":
				c.Kind = val
			case "session":
				c.Session = strings.Trim(val, `'"`)
			case model.KeySupersedes:
				c.Supersedes = strings.ToUpper(strings.Trim(val, `'"`))
			case "importance":
				if val != "" && val != "null" && val != "~" {
					c.Importance, err = strconv.ParseFloat(val, 64)
				}
			case "pinned":
				switch strings.ToLower(val) {
				case "true", "yes", "on":
					c.Pinned = true
				case "false", "no", "off", "", "null", "~":
				default:
					err = errors.New("not a boolean")
				}
			case "updated":
				if val != "" && val != "null" && val != "~" {
					c.Updated, err = model.ParseTimestamp(val)
				}
			}
			if err != nil {
				simple = false
				break
			}
		}
		simple = simple && closed
	}
	if !simple || c.Title == "" {
		if it, err := model.Parse(p, data); err == nil {
			c.ID, c.Title, c.Kind = it.ID, it.Title, string(it.Kind)
			c.Importance, c.Pinned, c.Updated, c.Session = it.Importance, it.Pinned, it.Updated, it.Session
		}
		if c.Supersedes == "" {
			// Parse keeps unknown keys to itself: look for the line.
			if _, after, ok := strings.Cut(text, "\n"+model.KeySupersedes+":"); ok {
				val, _, _ := strings.Cut(after, "\n")
				c.Supersedes = strings.ToUpper(strings.Trim(strings.TrimSpace(val), `'"`))
			}
		}
	}
	if c.ID == "" {
		c.ID = p
	}
	if c.Title == "" {
		name, _, _ := strings.Cut(strings.TrimSuffix(path.Base(p), ".md"), "--")
		c.Title = strings.ReplaceAll(name, "-", " ")
	}
	c.Importance = min(max(c.Importance, 0), 1)
	return c
}

// Current leaves out the items another item supersedes (consolidation
// moves them out of the tree, but a hand edit or a merge may leave both),
// and returns their ids.
func Current(items []Item) ([]Item, map[string]bool) {
	gone := make(map[string]bool)
	for _, c := range items {
		if c.Supersedes != "" && c.Supersedes != c.ID {
			gone[c.Supersedes] = true
		}
	}
	if len(gone) == 0 {
		return items, gone
	}
	out := items[:0]
	for _, c := range items {
		if !gone[c.ID] {
			out = append(out, c)
		}
	}
	return out, gone
}

// readMemory reads a work-tree file: never through a symbolic link,
// which is named in a warning and left out.
func readMemory(m *memory.Memory, p string) ([]byte, error) {
	data, err := m.ReadFile(p)
	m.WarnLink(err)
	return data, err
}
