package recall

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

// coreItem is what ranking core memory needs of an item, read cheaply.
type coreItem struct {
	path, id, title string
	kind            string
	importance      float64
	pinned          bool
	updated         time.Time
	supersedes      string // the id of the item this one replaced, if any
	session         string // the session it came from, if any
}

// coreCandidates returns the core items' ranking keys. They are kept in
// .state/core.tsv with the commit they reflect, and brought up to HEAD
// from the diff, so that a context pack reads one small file rather than
// every core item; a long-running process keeps them in memo as well.
// Files that do not parse are still candidates, as plain text.
func coreCandidates(ctx context.Context, m *memory.Memory, memo *coreMemo) ([]coreItem, error) {
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

// coreMemo holds the core items' keys as of a commit.
type coreMemo struct {
	mu     sync.Mutex
	commit string
	items  []coreItem
}

// coreCacheFile holds the core items' ranking keys as of a commit:
// a first line "cairn-core 3 COMMIT", then a line per item of tab-separated
// path, id, importance, pinned (0 or 1), updated (Unix seconds, 0 if
// unknown), kind, title, the id it supersedes and the session it came
// from. Derived: a damaged one is made again, and so is one of an older
// version (1 followed symbolic links, 2 lacked supersedes, 3 the session).
const coreCacheFile = "core.tsv"

func loadCoreCache(ctx context.Context, m *memory.Memory, head string) ([]coreItem, error) {
	name := m.StatePath(coreCacheFile)
	items, commit, ok := readCoreCache(name)
	if ok && commit == head {
		return items, nil
	}
	if ok {
		if diffs, err := m.History().Diff(ctx, memory.DiffOptions{From: commit, To: head, Paths: []string{"core"}}); err == nil {
			byPath := make(map[string]coreItem, len(items))
			for _, c := range items {
				byPath[c.path] = c
			}
			for _, d := range diffs {
				delete(byPath, d.Path)
				if d.Action != memory.Deleted && d.New != nil && docs.Indexable(d.Path) {
					byPath[d.Path] = quickMeta(d.Path, d.New)
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
		items = append(items, quickMeta(p, data))
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
func sortCore(items []coreItem) {
	sort.Slice(items, func(i, j int) bool { return items[i].path < items[j].path })
}

func readCoreCache(name string) (items []coreItem, commit string, ok bool) {
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
		c := coreItem{path: f[0], id: f[1], importance: imp, pinned: f[3] == "1", kind: f[5], title: f[6], supersedes: f[7], session: f[8]}
		if upd != 0 {
			c.updated = time.Unix(upd, 0).UTC()
		}
		items = append(items, c)
	}
	return items, commit, true
}

// writeCoreCache writes the cache; failing to is no error, only slower
// next time.
func writeCoreCache(name, commit string, items []coreItem) {
	var b strings.Builder
	b.WriteString("cairn-core 4 " + commit + "\n")
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, c := range items {
		pinned, upd := "0", int64(0)
		if c.pinned {
			pinned = "1"
		}
		if !c.updated.IsZero() {
			upd = c.updated.Unix()
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", clean.Replace(c.path), clean.Replace(c.id),
			strconv.FormatFloat(c.importance, 'g', -1, 64), pinned, upd, clean.Replace(c.kind), clean.Replace(c.title), clean.Replace(c.supersedes), clean.Replace(c.session))
	}
	safefile.WriteSync(name, []byte(b.String()), 0o600, safefile.SyncNone)
}

// quickMeta reads the keys that rank a core item from its front matter
// line by line, and parses the whole item only when a key is written in
// a way the line reader does not follow (quotes, block or flow values).
func quickMeta(p string, data []byte) coreItem {
	c := coreItem{path: p, importance: model.DefaultImportance}
	c.id, _ = model.IDFromPath(p)
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
					c.id = v
				}
			case "title":
				c.title = val
			case "kind":
				c.kind = val
			case "session":
				c.session = strings.Trim(val, `'"`)
			case model.KeySupersedes:
				c.supersedes = strings.ToUpper(strings.Trim(val, `'"`))
			case "importance":
				if val != "" && val != "null" && val != "~" {
					c.importance, err = strconv.ParseFloat(val, 64)
				}
			case "pinned":
				switch strings.ToLower(val) {
				case "true", "yes", "on":
					c.pinned = true
				case "false", "no", "off", "", "null", "~":
				default:
					err = errors.New("not a boolean")
				}
			case "updated":
				if val != "" && val != "null" && val != "~" {
					c.updated, err = model.ParseTimestamp(val)
				}
			}
			if err != nil {
				simple = false
				break
			}
		}
		simple = simple && closed
	}
	if !simple || c.title == "" {
		if it, err := model.Parse(p, data); err == nil {
			c.id, c.title, c.kind = it.ID, it.Title, string(it.Kind)
			c.importance, c.pinned, c.updated, c.session = it.Importance, it.Pinned, it.Updated, it.Session
		}
		if c.supersedes == "" {
			// Parse keeps unknown keys to itself: look for the line.
			if _, after, ok := strings.Cut(text, "\n"+model.KeySupersedes+":"); ok {
				val, _, _ := strings.Cut(after, "\n")
				c.supersedes = strings.ToUpper(strings.Trim(strings.TrimSpace(val), `'"`))
			}
		}
	}
	if c.id == "" {
		c.id = p
	}
	if c.title == "" {
		name, _, _ := strings.Cut(strings.TrimSuffix(path.Base(p), ".md"), "--")
		c.title = strings.ReplaceAll(name, "-", " ")
	}
	c.importance = clamp01(c.importance)
	return c
}
