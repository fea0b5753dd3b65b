package recall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/assoc"
	"github.com/cairn-mem/cairn/internal/recall/docs"
	"github.com/cairn-mem/cairn/internal/recall/embed"
)

// indexDir is the search index's folder inside the state folder.
const indexDir = "index"

// putBatch is how many documents go to the indexer at once when many
// files are indexed: enough to fill its Bleve batches, few enough to show
// progress.
const putBatch = 256

// fillBatch is how many files a first build reads and parses at once, on
// every processor, while the indexer indexes the previous ones.
const fillBatch = 4 * putBatch

// Index is a memory's search index, opened for searching and packing
// context. It follows the repository: it records the commit it reflects
// and catches up from the diff to HEAD before each search. Only one
// process at a time can have it open (see OpenIndex); its methods are
// safe for concurrent use within that process.
type Index struct {
	m   *memory.Memory
	ix  *indexer.Index
	cfg config.Search
	emb indexer.Embedder

	mu sync.Mutex // serialises catching up
	// lag is why the index could not catch up last time, and lagAt when:
	// with the embedding service down, searches do not retry on every
	// query.
	lag   error
	lagAt time.Time

	// rebuilds counts the times the index was found damaged while open
	// and rebuilt, so that searches that failed together rebuild it once.
	rebuilds int
	assoc    assoc.Cache // term associations (.state/assoc), read when a query needs them
	// buildGC is IndexOptions.BuildGC.
	buildGC func() (restore func())
}

// retryLag is how long an index that could not catch up because the
// embedding service was down waits before it tries again.
const retryLag = 30 * time.Second

// IndexOptions tune OpenIndex and Reindex.
type IndexOptions struct {
	// LockTimeout is how long to wait for another process that has the
	// index open; 0 means not at all. The error then matches
	// indexer.ErrLocked.
	LockTimeout time.Duration
	// Progress, if set, is called while many files are indexed (a
	// rebuild, a long catch-up) with the files done and their total.
	Progress func(done, total int)
	// BuildGC, if set, is called when the index is filled from scratch
	// (built, rebuilt, or reset), and what it returns when the fill
	// ends: it sets the process's garbage collector for the build and
	// puts back its own (indexer.GCForBuild, which `cairn reindex` and
	// the daemon pass).
	BuildGC func() (restore func())
}

// OpenIndex opens the memory's search index in .state/index and brings
// it up to HEAD. A missing, damaged or outdated index (another schema,
// embedder or chunking) is rebuilt from the files, with one line through
// Options.Warn saying so. If the index cannot catch up because the
// embedding service is down, it is opened as it is, with a warning.
func OpenIndex(ctx context.Context, m *memory.Memory, opts IndexOptions) (*Index, error) {
	x, reason, err := openIndex(ctx, m, opts.LockTimeout, false)
	if err != nil {
		return nil, err
	}
	x.buildGC = opts.BuildGC
	if err := x.catchUp(ctx, reason, opts.Progress); err != nil {
		switch {
		case !embed.Failed(err):
			x.Close()
			return nil, err
		case x.ix.Version() == "":
			x.Close()
			return nil, fmt.Errorf("cannot build the search index: %s; start the service or fix search.embedder in cairn.yaml (provider: builtin needs neither network nor model): %w",
				x.embedProblem(err), err)
		}
		// Searchable as it is; Search says it lags.
		x.lag, x.lagAt = err, m.Now()
	}
	return x, nil
}

// Reindex rebuilds the search index from scratch from the work tree and
// returns it open.
func Reindex(ctx context.Context, m *memory.Memory, opts IndexOptions) (*Index, error) {
	cfg := searchConfig(m)
	iopts, err := indexerOptions(m, cfg, opts.LockTimeout)
	if err != nil {
		return nil, err
	}
	ix, err := indexer.Rebuild(ctx, m.StatePath(indexDir), iopts)
	if errors.Is(err, indexer.ErrLocked) {
		state := m.StatePath("")
		if _, derr := client.Discover(ctx, state, client.DefaultWait); derr == nil {
			return nil, fmt.Errorf("the cairn daemon has the search index open; stop it (cairn daemon stop), reindex, and start it again: %w", err)
		}
		return nil, fmt.Errorf("the search index is in use by another process%s; try again in a moment: %w", holder(state), err)
	}
	if err != nil {
		return nil, fmt.Errorf("rebuild search index: %w", err)
	}
	x := &Index{m: m, ix: ix, cfg: cfg, emb: iopts.Embedder, buildGC: opts.BuildGC}
	if err := x.fill(ctx, "", false, opts.Progress); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// openIndex opens the index without catching up. reason says why it
// was rebuilt ("" if it was not). With existing, a missing or damaged
// index is reported (as indexer.ErrNeedsRebuild) rather than rebuilt.
func openIndex(ctx context.Context, m *memory.Memory, lockTimeout time.Duration, existing bool) (x *Index, reason string, err error) {
	cfg := searchConfig(m)
	iopts, err := indexerOptions(m, cfg, lockTimeout)
	if err != nil {
		return nil, "", err
	}
	iopts.MustExist = existing
	dir := m.StatePath(indexDir)
	ix, err := indexer.Open(ctx, dir, iopts)
	var re *indexer.RebuildError
	if !existing && errors.As(err, &re) {
		reason = rebuildReason(re)
		ix, err = indexer.Rebuild(ctx, dir, iopts)
	}
	if err != nil {
		return nil, "", fmt.Errorf("open search index: %w", err)
	}
	return &Index{m: m, ix: ix, cfg: cfg, emb: iopts.Embedder}, reason, nil
}

func rebuildReason(re *indexer.RebuildError) string {
	var why string
	switch re.Reason {
	case "missing":
		why = "was incomplete"
	case "corrupt":
		why = "was damaged"
	case "schema":
		why = "was made by another version of cairn"
	case "embedder":
		why = "was built with another embedder"
	case "chunking":
		why = "was built with other chunk sizes"
	default:
		why = "needed a rebuild (" + re.Reason + ")"
	}
	if re.Err != nil {
		why += " (" + re.Err.Error() + ")"
	}
	return why
}

// indexerOptions turns the configuration into the indexer's options.
func indexerOptions(m *memory.Memory, cfg config.Search, lockTimeout time.Duration) (indexer.Options, error) {
	emb, err := embed.New(cfg.Embedder)
	if err != nil {
		return indexer.Options{}, err
	}
	return indexer.Options{
		Embedder:    emb,
		Chunk:       indexer.ChunkOptions{MaxTokens: cfg.ChunkTokens, Overlap: cfg.OverlapTokens},
		Source:      m.FS(), // hits' text, for FillText; never through a link
		LockTimeout: lockTimeout,
	}, nil
}

// searchConfig returns the search configuration with values out of
// range replaced by the defaults, saying so.
func searchConfig(m *memory.Memory) config.Search {
	c := m.Config.Search
	d := config.Default().Search
	fix := func(bad bool, key string, apply func()) {
		if bad {
			m.Warn(fmt.Sprintf("cairn.yaml: search.%s is out of range; using the default", key))
			apply()
		}
	}
	fix(c.ChunkTokens != 0 && (c.ChunkTokens < 32 || c.ChunkTokens > 8192), "chunk_tokens", func() { c.ChunkTokens = d.ChunkTokens })
	if c.ChunkTokens == 0 {
		c.ChunkTokens = d.ChunkTokens
	}
	fix(c.OverlapTokens < 0 || c.OverlapTokens >= c.ChunkTokens/2, "overlap_tokens", func() { c.OverlapTokens = d.OverlapTokens })
	w := &c.Weights
	fix(w.Relevance < 0 || w.Recency < 0 || w.Importance < 0 || w.References < 0 ||
		w.Relevance+w.Recency+w.Importance+w.References == 0, "weights", func() { c.Weights = d.Weights })
	fix(c.RecencyHalfLifeDays < 0, "recency_half_life_days", func() { c.RecencyHalfLifeDays = d.RecencyHalfLifeDays })
	if c.RecencyHalfLifeDays == 0 {
		c.RecencyHalfLifeDays = d.RecencyHalfLifeDays
	}
	fix(c.MinMatch < 0 || c.MinMatch > 1 || c.MinMatch != c.MinMatch, "min_match", func() { c.MinMatch = d.MinMatch })
	fix(c.ContextBudget < 0, "context_budget", func() { c.ContextBudget = d.ContextBudget })
	if c.ContextBudget == 0 {
		c.ContextBudget = d.ContextBudget
	}
	if c.Embedder.Timeout <= 0 {
		c.Embedder.Timeout = d.Embedder.Timeout
	}
	return c
}

func cfgURL(c config.Search) string { return c.Embedder.BaseURL }

// builtin reports whether the index uses the built-in embedder.
func (x *Index) builtin() bool {
	_, ok := x.emb.(*indexer.HashEmbedder)
	return ok
}

// lastPart is the innermost part of an error's message, the cause
// ("connection refused").
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// Close closes the index and lets another process open it.
func (x *Index) Close() error { return x.ix.Close() }

// Stats returns figures about the index.
func (x *Index) Stats() (indexer.Stats, error) { return x.ix.Stats() }

// CatchUp brings the index up to the repository's HEAD. Search does it
// too; a long-running process calls it after its own checkpoints so that
// the next search finds nothing to do.
func (x *Index) CatchUp(ctx context.Context) error {
	err := x.catchUp(ctx, "", nil)
	x.mu.Lock()
	x.lag, x.lagAt = err, x.m.Now()
	x.mu.Unlock()
	return err
}

// follow catches up before a search, unless it failed for want of the
// embedding service moments ago. It returns why the index lags, if it
// does.
func (x *Index) follow(ctx context.Context) error {
	x.mu.Lock()
	lag, at := x.lag, x.lagAt
	x.mu.Unlock()
	if lag != nil && embed.Failed(lag) && x.m.Now().Sub(at) < retryLag {
		return lag
	}
	err := x.catchUp(ctx, "", nil)
	x.mu.Lock()
	x.lag, x.lagAt = err, x.m.Now()
	x.mu.Unlock()
	return err
}

// embedProblem says in a few words what went wrong with the embedding
// service.
func (x *Index) embedProblem(err error) string {
	if errors.Is(err, indexer.ErrEmbedderUnavailable) {
		return fmt.Sprintf("embedding service %s is unavailable (%s)", cfgURL(x.cfg), lastPart(err))
	}
	msg := err.Error()
	for _, p := range []string{"search index: ", "index put: ", "search: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if u := cfgURL(x.cfg); u != "" {
		msg = "embedding service " + u + ": " + msg
	}
	return msg
}

// catchUp re-indexes the files that changed between the commit the index
// reflects and HEAD; an index that reflects nothing (new, reset, or built
// with a commit this repository lacks) is filled from the work tree.
// reason, if set, says why the index was rebuilt, for the one line that
// announces it.
func (x *Index) catchUp(ctx context.Context, reason string, progress func(done, total int)) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	head, err := x.m.History().Resolve("HEAD")
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	v := x.ix.Version()
	if v == head {
		return nil
	}
	if v != "" {
		diffs, err := x.m.History().Diff(ctx, memory.DiffOptions{From: v, To: head, Paths: model.ItemRoots})
		if err == nil {
			err = x.apply(ctx, head, diffs, progress)
			if errors.Is(err, indexer.ErrNeedsRebuild) {
				return x.refill(ctx, err, progress)
			}
			return err
		}
		if !errors.Is(err, memory.ErrUnknownRev) {
			return fmt.Errorf("search index: catch up from %.10s: %w", v, err)
		}
		reason = fmt.Sprintf("reflected commit %.10s, which is not in this repository", v)
		if err := x.ix.Reset(ctx); err != nil {
			return err
		}
	}
	return x.fill(ctx, reason, true, progress)
}

// rebuild empties an open index found damaged (cause matches
// indexer.ErrNeedsRebuild: the vectors are read on first use, so damage
// there shows in a search or an update, not when the index is opened)
// and fills it again from the files, saying so in one line. seen is
// x.rebuilds when the caller met the damage: searches that met it
// together rebuild once.
func (x *Index) rebuild(ctx context.Context, cause error, seen int) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.rebuilds != seen {
		return nil
	}
	return x.refill(ctx, cause, nil)
}

// refill is rebuild with x.mu held.
func (x *Index) refill(ctx context.Context, cause error, progress func(done, total int)) error {
	x.rebuilds++
	reason := "was damaged"
	var re *indexer.RebuildError
	if errors.As(cause, &re) {
		reason = rebuildReason(re)
	}
	if err := x.ix.Reset(ctx); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return x.fill(ctx, reason, true, progress)
}

// generation returns x.rebuilds, for rebuild.
func (x *Index) generation() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rebuilds
}

// apply re-indexes the files of diffs and records head.
func (x *Index) apply(ctx context.Context, head string, diffs []memory.FileDiff, progress func(done, total int)) error {
	var gone []string
	var batch []indexer.Document
	sessions := docs.NewSessions(x.m.Dir)
	for i := range diffs {
		d := &diffs[i]
		if !docs.Indexable(d.Path) {
			continue
		}
		if d.Action == memory.Deleted || d.New == nil {
			gone = append(gone, d.Path)
			continue
		}
		if dir, _ := docs.SessionDir(d.Path); dir != "" && path.Base(d.Path) == model.TranscriptFile {
			// A transcript now holds the session's prompts.
			gone = append(gone, dir+"/"+model.PromptsFile)
		}
		data := d.New
		if limit := x.cfg.FileLimit(); int64(len(data)) > limit {
			warnCapped(x.m, d.Path, int64(len(data)), limit)
			data = cutUTF8(data, limit)
		}
		doc, ok := docs.Document(d.Path, data, sessions)
		if !ok {
			gone = append(gone, d.Path)
			continue
		}
		batch = append(batch, doc)
	}
	if len(gone) > 0 {
		if err := x.ix.Delete(ctx, gone...); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	if err := x.put(ctx, batch, progress); err != nil {
		return err
	}
	return x.ix.SetVersion(ctx, head)
}

// put indexes the documents in batches of putBatch, reporting progress when there are many.
func (x *Index) put(ctx context.Context, batch []indexer.Document, progress func(done, total int)) error {
	if len(batch) <= putBatch {
		progress = nil
	}
	for i := 0; i < len(batch); i += putBatch {
		j := min(i+putBatch, len(batch))
		if err := x.ix.Put(ctx, batch[i:j]...); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
		if progress != nil {
			progress(j, len(batch))
		}
	}
	return nil
}

// fill indexes every file of the work tree that belongs in the index and
// records HEAD as read before the walk: a checkpoint made meanwhile is
// caught up next time. With announce, one line through Warn says that
// it happens, and why if reason says.
func (x *Index) fill(ctx context.Context, reason string, announce bool, progress func(done, total int)) error {
	head, err := x.m.History().Resolve("HEAD")
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	paths, err := indexablePaths(ctx, x.m)
	if err != nil {
		return err
	}
	if len(paths) > 0 && !x.builtin() {
		// Ask the embedding service once before saying that indexing
		// starts: when it is down, that is all there is to say.
		if _, err := x.emb.Embed(ctx, []string{"cairn"}); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	switch {
	case !announce:
	case reason != "":
		x.m.Warn(fmt.Sprintf("search index %s; rebuilding it from %d files", reason, len(paths)))
	case len(paths) > 0:
		x.m.Warn(fmt.Sprintf("building the search index from %d files", len(paths)))
	}
	if progress != nil {
		progress(0, len(paths))
	}
	if x.buildGC != nil {
		defer x.buildGC()()
	}
	// Files are read and parsed on every processor, a window ahead of
	// the indexer.
	limit := x.cfg.FileLimit()
	read := func(p string) ([]byte, int64, error) {
		data, size, err := x.m.ReadFileHead(p, limit) // not through a link
		if err == nil && size > limit {
			data = cutUTF8(data, limit)
		}
		return data, size, err
	}
	done := 0
	err = docs.LoadAhead(ctx, x.m.Dir, paths, fillBatch, read, func(files []docs.Loaded) error {
		batch := make([]indexer.Document, 0, len(files))
		for _, f := range files {
			switch {
			case f.Err != nil && (errors.Is(f.Err, memory.ErrNoFile) || x.m.WarnLink(f.Err)):
				continue // removed meanwhile, or a folder swapped for a link
			case errors.Is(f.Err, memory.ErrBadName):
				// Not committed either: one such file left every search
				// and reindex failing.
				if _, seen := capWarned.LoadOrStore(x.m.Dir+"\x00name\x00"+f.Path, true); !seen {
					x.m.Warn(fmt.Sprintf("not indexing %v", f.Err))
				}
				continue
			case f.Err != nil:
				return fmt.Errorf("search index: %w", f.Err)
			case !f.OK:
				continue
			case f.Size > limit:
				warnCapped(x.m, f.Path, f.Size, limit)
			}
			batch = append(batch, f.Doc)
		}
		if err := x.ix.Put(ctx, batch...); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
		// The window's paths are the index's own copies now: the
		// list lets go of them as it goes (100,000 paths are 10 MB).
		// The reader is a window or two ahead, in another part of it.
		clear(paths[done : done+len(files)])
		if done += len(files); progress != nil {
			progress(done, len(paths))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return x.ix.SetVersion(ctx, head)
}

// indexablePaths lists the files of the work tree that belong in the
// index, sorted.
func indexablePaths(ctx context.Context, m *memory.Memory) ([]string, error) {
	var paths []string
	for _, root := range model.ItemRoots {
		// WalkFiles skips symbolic links, naming them.
		err := m.WalkFiles(ctx, root, func(p string, d fs.DirEntry) error {
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") && p != root {
					return filepath.SkipDir
				}
				return nil
			}
			if docs.Indexable(p) && d.Type().IsRegular() {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("search index: list %s: %w", root, err)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// capWarned holds the files warnCapped has warned about, and those with
// a bad name fill passed over, by memory folder and path: once per file
// per process.
var capWarned sync.Map

// cutUTF8 returns the first limit bytes of head, cut before a character
// the limit splits.
func cutUTF8(head []byte, limit int64) []byte {
	head = head[:min(int64(len(head)), limit)]
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i]
			}
			break
		}
	}
	return head
}

// warnCapped says once per file per process that only the first limit
// bytes of a file of size bytes are searchable.
func warnCapped(m *memory.Memory, p string, size, limit int64) {
	if _, seen := capWarned.LoadOrStore(m.Dir+"\x00"+p, true); !seen {
		m.Warn(fmt.Sprintf("%s: %d bytes; only the first %d are searchable (search.max_file_bytes)", p, size, limit))
	}
}

// afterCheckpoint re-indexes what a checkpoint changed, when the index
// exists and no other process has it open: a process that has it open
// catches up before its next search, and a missing or damaged index is
// rebuilt by the next search. Failures are warnings: the checkpoint
// stands.
func afterCheckpoint(ctx context.Context, m *memory.Memory, cp *memory.Checkpoint) {
	if _, err := os.Stat(filepath.Join(m.StatePath(indexDir), "meta.json")); err != nil {
		return // never built: the first search builds it
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	x, _, err := openIndex(ctx, m, 0, true)
	if errors.Is(err, indexer.ErrLocked) || errors.Is(err, indexer.ErrNeedsRebuild) {
		return
	}
	if err == nil {
		err = x.catchUp(ctx, "", nil)
		if cerr := x.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		m.Warn(fmt.Sprintf("search index not updated after checkpoint %.10s (the next search catches up): %v", cp.Hash, err))
	}
}

// Follow has the search index follow every checkpoint m makes, when no
// other process holds it (see afterCheckpoint). Every process that opens
// a memory to change it calls it once.
func Follow(m *memory.Memory) {
	m.OnCheckpoint(func(ctx context.Context, cp *memory.Checkpoint) { afterCheckpoint(ctx, m, cp) })
}

// IndexedVersion returns the commit the search index last caught up to,
// read without opening the index, so that it can be asked while the
// daemon holds it (cairn doctor). The error matches fs.ErrNotExist when
// no index has been built yet.
func IndexedVersion(m *memory.Memory) (string, error) {
	return indexer.RecordedVersion(m.StatePath(indexDir))
}

// CheckIndex opens the search index, which repairs or rebuilds it and
// brings it up to HEAD, and says how many documents it holds, or why it
// could not be opened (cairn verify).
func CheckIndex(ctx context.Context, m *memory.Memory) (batch int, problem string) {
	x, err := OpenIndex(ctx, m, IndexOptions{})
	if err != nil {
		return 0, err.Error()
	}
	defer x.Close()
	if st, err := x.Stats(); err == nil {
		batch = st.Documents
	}
	return batch, ""
}
