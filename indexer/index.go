package indexer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/size"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/cairn-mem/cairn/indexer/chunk"
	"github.com/cairn-mem/cairn/indexer/embed"
	"github.com/cairn-mem/cairn/indexer/english"
	"github.com/cairn-mem/cairn/indexer/vecstore"
	"github.com/cairn-mem/cairn/internal/safefile"
)

var (
	// ErrNeedsRebuild is wrapped by Open's error when the index is
	// missing (with Options.MustExist), damaged, or of another schema or
	// embedder: Rebuild makes a new, empty one to fill. Damaged vectors,
	// read only when first needed, make the first vector or hybrid
	// Search, Put or Delete (and every later one) fail with it instead.
	ErrNeedsRebuild = errors.New("index needs a rebuild")
	// ErrLocked is wrapped by Open's error when another process (or
	// another Index in this one) has the index open.
	ErrLocked = errors.New("index is locked by another process")
	// ErrClosed is returned by methods of a closed Index.
	ErrClosed = errors.New("index is closed")
)

// RebuildError says why an index needs a rebuild. It matches
// ErrNeedsRebuild with errors.Is.
type RebuildError struct {
	Dir    string
	Reason string // "missing", "corrupt", "schema", "embedder" or "chunking"
	Err    error
}

func (e *RebuildError) Error() string {
	msg := "index " + e.Dir + " needs a rebuild (" + e.Reason + ")"
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *RebuildError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNeedsRebuild) true.
func (e *RebuildError) Is(target error) bool { return target == ErrNeedsRebuild }

// BuildMemory is the soft memory limit (runtime/debug.SetMemoryLimit)
// a process that builds an index from scratch sets (GCForBuild), unless
// GOMEMLIMIT or a lower limit of its own is in force: a build's heap grows with the memory (Bleve's segments on
// their way to disk and to merges), and a short-lived process's GOGC of
// 400 let a 100,000-file `cairn reindex` reach 0.8 GB. At this limit it
// peaked near 0.46 GB for the same CPU time.
const BuildMemory = 384 << 20

// BuildGC is the GOGC (runtime/debug.SetGCPercent) of a process while
// it builds an index from scratch (GCForBuild): a short command's 400 let a 10,000-file
// `cairn reindex` reach 370 MiB, where 200 kept it near 240 MiB for the
// same CPU time (the collector was 3% of it).
const BuildGC = 200

// ChunkOptions say how bodies are cut into chunks. Chunking lives in
// package chunk; this name keeps the index's callers to one import.
type ChunkOptions = chunk.Options

// EstimateTokens estimates how many tokens an LLM's tokenizer produces for
// s: the measure of chunks and hits, and of the budgets of the index's
// callers. It is chunk.EstimateTokens, re-exported for the same reason.
func EstimateTokens(s string) int { return chunk.EstimateTokens(s) }

// Options configure an Index. The zero value works: the built-in
// embedder, the default chunking, no hit text.
type Options struct {
	// Embedder makes the vectors; nil means NewHashEmbedder.
	Embedder Embedder
	// Chunk says how bodies are cut into chunks.
	Chunk ChunkOptions
	// Source is where documents' paths are read to show a hit's text and
	// snippet; nil leaves Hit.Text and Hit.Snippet empty.
	Source fs.FS
	// BatchSize is the most chunks that go to Bleve in one batch (a
	// Put's chunks are split into batches of even size, a document's
	// chunks kept together); 0 means 1000.
	BatchSize int
	// Workers is how many goroutines chunk, analyse and embed documents
	// at once; 0 means one per processor. The index is the same whatever
	// the number.
	Workers int
	// LockTimeout is how long Open waits for another process to let go of
	// the index before it reports ErrLocked; 0 means it does not wait.
	LockTimeout time.Duration
	// MustExist makes Open report a missing index as ErrNeedsRebuild
	// instead of creating an empty one.
	MustExist bool
	// RRFK is the k of reciprocal rank fusion, 1/(k+rank); 0 means 60.
	RRFK int
}

// A Document is what the index is given: a file's fields and the body to
// chunk. The index knows nothing of what the fields mean.
type Document struct {
	Path                 string // unique key, as the caller names files (slash-separated)
	Title                string
	Kind, Layer, Session string
	Tags                 []string
	Created, Updated     time.Time
	Importance           float64
	Body                 string
	// FirstLine is the line number of Body's first line in the file
	// (after front matter); 0 means 1.
	FirstLine int
	// Cut says how the body is cut into chunks: by size (chunk.Split,
	// the zero value), in windows of a few turns (chunk.SplitDialogue)
	// or by section (chunk.SplitSections).
	Cut Cut
	// Header, if set, is one line that heads every chunk of the body (a
	// session's number, date and speakers): indexed and embedded with
	// each chunk's text, counted in its tokens, and the first line of a
	// hit's Text, so that a chunk cut from its file still says where and
	// when it was said.
	Header string
}

// Cut is how a document's body is cut into chunks.
type Cut int

const (
	BySize    Cut = iota // chunk.Split: pieces of at most MaxTokens
	ByTurns              // chunk.SplitDialogue: a few turns of a dialogue a chunk
	BySection            // chunk.SplitSections: a section a chunk
)

// meta is meta.json.
type meta struct {
	Schema   int       `json:"schema"`
	Version  string    `json:"version"`
	Embedder string    `json:"embedder"`
	Dim      int       `json:"dim"`
	Chunking string    `json:"chunking"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// Clean is true when no write has happened since Chunks was counted
	// (at SetVersion or Close); Open then checks that Bleve and the
	// vectors file both hold Chunks chunks, which finds a segment Bleve
	// skipped as unreadable.
	Clean  bool `json:"clean"`
	Chunks int  `json:"chunks"`
}

// Index is an open search index. Its methods are safe for concurrent use;
// writes are serialised, searches run alongside each other.
type Index struct {
	dir      string
	opts     Options
	embedder Embedder
	analyzer analysis.Analyzer
	english  *english.Analyzer          // the same, for a build's analysis
	unlock   func() error               // releases the directory's lock, once acquired
	textOpts index.FieldIndexingOptions // of body and title, from the mapping
	// of the keyword fields (kind, layer, session, tags, created), likewise
	keywordOpts index.FieldIndexingOptions

	mu    sync.RWMutex
	bleve bleve.Index
	vecs  *vecstore.Store
	meta  meta
	// onDisk is what meta.json holds, so Close need not rewrite it
	// unchanged.
	onDisk meta
	closed bool
	// consistent is true while Bleve holds exactly the chunks the vectors
	// file does; then a path's chunks need no search in Bleve to be found.
	consistent bool
	// persisting has a channel for each Bleve batch not known to be on
	// disk, which its persisted callback sends on (see durable).
	persisting []chan error
	// writable is false while Bleve is open read-only, as Open leaves it
	// (see openBleve); the first write reopens it for writing.
	writable bool

	// Analyses for Put, kept from one to the next (see takeScratch).
	scratchMu sync.Mutex
	scratch   []*chunkScratch
}

const (
	metaFile    = "meta.json"
	bleveDir    = "bleve"
	vectorsFile = "vectors"
	lockFile    = "lock"
)

// Open opens the index in dir, creating an empty one (with an empty
// Version) if dir holds none, unless opts.MustExist. It fails with an
// error matching ErrLocked if another process has it open, and with one
// matching ErrNeedsRebuild (a *RebuildError) if it is damaged or was made
// with another schema, embedder or chunking.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	ix, err := newIndex(dir, opts)
	if err != nil {
		return nil, err
	}
	if err := ix.acquire(ctx); err != nil {
		return nil, err
	}
	if err := ix.open(); err != nil {
		ix.release()
		return nil, err
	}
	return ix, nil
}

// Rebuild discards whatever index dir holds and creates an empty one.
// Fill it with Put and record the version with SetVersion.
func Rebuild(ctx context.Context, dir string, opts Options) (*Index, error) {
	ix, err := newIndex(dir, opts)
	if err != nil {
		return nil, err
	}
	if err := ix.acquire(ctx); err != nil {
		return nil, err
	}
	err = ix.removeFiles()
	if err == nil {
		err = ix.create()
	}
	if err != nil {
		ix.release()
		return nil, err
	}
	return ix, nil
}

func newIndex(dir string, opts Options) (*Index, error) {
	if opts.Embedder == nil {
		h, err := NewHashEmbedder()
		if err != nil {
			return nil, err
		}
		opts.Embedder = h
	}
	if opts.Embedder.Dim() <= 0 {
		return nil, fmt.Errorf("open index %s: embedder %s has no dimensions", dir, opts.Embedder.Name())
	}
	opts.Chunk = opts.Chunk.WithDefaults()
	if opts.BatchSize <= 0 {
		opts.BatchSize = 1000
	}
	if opts.RRFK <= 0 {
		opts.RRFK = 60
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	return &Index{dir: dir, opts: opts, embedder: opts.Embedder}, nil
}

// acquire takes the directory's lock, waiting up to LockTimeout. Its
// error names the holder, which safefile.Lock writes into the lock file.
func (ix *Index) acquire(ctx context.Context) error {
	name := filepath.Join(ix.dir, lockFile)
	unlock, err := safefile.Lock(ctx, name, max(ix.opts.LockTimeout, 0))
	// Out of time, whoever's time it was, is still a lock held too long.
	if errors.Is(err, safefile.ErrLocked) || errors.Is(err, context.DeadlineExceeded) {
		holder := ""
		if h := safefile.Holder(name); h != "" {
			holder = " (" + h + ")"
		}
		return fmt.Errorf("open index %s: %w%s", ix.dir, ErrLocked, holder)
	}
	if err != nil {
		return fmt.Errorf("lock index %s: %w", ix.dir, err)
	}
	ix.unlock = unlock
	return nil
}

func (ix *Index) release() { ix.unlock() }

func (ix *Index) chunking() string {
	c := ix.opts.Chunk
	return fmt.Sprintf("max=%d overlap=%d turn=%s turns=%d", c.MaxTokens, c.Overlap, c.Turn.String(), c.Turns)
}

func (ix *Index) rebuildErr(reason string, err error) error {
	return &RebuildError{Dir: ix.dir, Reason: reason, Err: err}
}

// vecErr turns the vector store's report of damage to its vectors (read
// only when first needed) into the index's: a *RebuildError. Other
// errors pass unchanged.
func (ix *Index) vecErr(err error) error {
	var ce *vecstore.CorruptError
	if errors.As(err, &ce) {
		return ix.rebuildErr("corrupt", err)
	}
	return err
}

// open opens an existing index or creates a new one.
func (ix *Index) open() error {
	var found []string
	for _, name := range []string{metaFile, bleveDir, vectorsFile} {
		if _, err := os.Stat(filepath.Join(ix.dir, name)); err == nil {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		if ix.opts.MustExist {
			return ix.rebuildErr("missing", nil)
		}
		return ix.create()
	}
	if len(found) < 3 {
		return ix.rebuildErr("missing", fmt.Errorf("only %s present", strings.Join(found, ", ")))
	}

	b, err := os.ReadFile(filepath.Join(ix.dir, metaFile))
	if err != nil {
		return ix.rebuildErr("corrupt", err)
	}
	if err := json.Unmarshal(b, &ix.meta); err != nil {
		return ix.rebuildErr("corrupt", fmt.Errorf("%s: %w", metaFile, err))
	}
	ix.onDisk = ix.meta
	switch {
	case ix.meta.Schema != schemaVersion:
		return ix.rebuildErr("schema", fmt.Errorf("schema %d, this cairn uses %d", ix.meta.Schema, schemaVersion))
	case ix.meta.Embedder != ix.embedder.Name() || ix.meta.Dim != ix.embedder.Dim():
		return ix.rebuildErr("embedder", fmt.Errorf("built with %s (%d dimensions), configured %s (%d)", ix.meta.Embedder, ix.meta.Dim, ix.embedder.Name(), ix.embedder.Dim()))
	case ix.meta.Chunking != ix.chunking():
		return ix.rebuildErr("chunking", fmt.Errorf("built with %s, configured %s", ix.meta.Chunking, ix.chunking()))
	}

	vs := vecstore.New(filepath.Join(ix.dir, vectorsFile), ix.embedder.Dim(), ix.embedder.Name())
	if err := vs.Load(); err != nil {
		var mm *vecstore.MismatchError
		if errors.As(err, &mm) {
			return ix.rebuildErr("embedder", err)
		}
		return ix.rebuildErr("corrupt", fmt.Errorf("%s: %w", vectorsFile, err))
	}
	bi, err := openBleve(filepath.Join(ix.dir, bleveDir), false)
	if err != nil {
		vs.Close()
		return ix.rebuildErr("corrupt", err)
	}
	ix.bleve, ix.vecs = bi, vs
	if err := ix.setup(); err != nil {
		return err
	}
	if ix.meta.Clean {
		n, _ := bi.DocCount()
		if n != uint64(ix.meta.Chunks) || vs.Count() != ix.meta.Chunks {
			ix.closeFiles()
			return ix.rebuildErr("corrupt", fmt.Errorf("holds %d chunks in Bleve and %d in %s, but %d when last closed", n, vs.Count(), vectorsFile, ix.meta.Chunks))
		}
	}
	return nil
}

// openBleve opens the Bleve index and proves it answers, turning a panic
// of a damaged segment into an error, and so a fault reading a damaged
// file's mapped pages (a bolt root cut short faults as bolt reads it,
// with SIGBUS, which would end the process). Unless writable it is opened
// read-only: then Bleve starts neither its persister nor its merger, so
// a process that only searches spends no time merging segments, work a
// short-lived process threw away when it exited (at 10,000 files it
// was half the CPU of a cold search).
func openBleve(path string, writable bool) (bi bleve.Index, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if bi != nil {
				bi.Close()
			}
			bi, err = nil, fmt.Errorf("bleve index %s: %v", path, r)
		}
	}()
	cfg := bleveConfig()
	if !writable {
		cfg["read_only"] = true
	}
	bi, err = bleve.OpenUsing(path, cfg)
	if err != nil {
		return nil, fmt.Errorf("bleve index %s: %w", path, err)
	}
	if _, err := bi.DocCount(); err != nil {
		bi.Close()
		return nil, fmt.Errorf("bleve index %s: %w", path, err)
	}
	req := bleve.NewSearchRequestOptions(query.NewMatchAllQuery(), 1, 0, false)
	if _, err := bi.Search(req); err != nil {
		bi.Close()
		return nil, fmt.Errorf("bleve index %s: %w", path, err)
	}
	return bi, nil
}

// bleveConfig is how Bleve's index is opened. bolt_timeout keeps Bleve
// from blocking forever on its own file lock should ours ever be
// bypassed. With unsafe_batch a batch returns once searchable, not once
// on disk: Bleve's persister writes the batches that came meanwhile
// together, with one round of fsyncs, while the next are made, and
// durable waits for it where the index records what it holds (with
// every fsync awaited, a first build of 100k files spent most of its
// time waiting for the disk).
func bleveConfig() map[string]any {
	return map[string]any{"bolt_timeout": "2s", "unsafe_batch": true}
}

// persistWait is how long durable waits for Bleve's persister when its
// caller has no deadline of its own (Close).
const persistWait = 5 * time.Minute

// durable waits until Bleve has on disk every batch written, then
// fsyncs the vectors file: after it, a crash loses nothing written.
func (ix *Index) durable(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, persistWait)
		defer cancel()
	}
	for len(ix.persisting) > 0 {
		select {
		case err := <-ix.persisting[0]:
			if err != nil {
				return fmt.Errorf("bleve persist: %w", err)
			}
		case <-ctx.Done():
			return fmt.Errorf("bleve persist: %w", ctx.Err())
		}
		ix.persisting = ix.persisting[1:]
	}
	return ix.vecErr(ix.vecs.Sync())
}

// create makes a new, empty index in ix.dir, which holds no index files.
func (ix *Index) create() error {
	bi, err := bleve.NewUsing(filepath.Join(ix.dir, bleveDir), newMapping(), scorch.Name, scorch.Name, bleveConfig())
	if err != nil {
		return fmt.Errorf("create index %s: %w", ix.dir, err)
	}
	vs := vecstore.New(filepath.Join(ix.dir, vectorsFile), ix.embedder.Dim(), ix.embedder.Name())
	if err := vs.Create(); err != nil {
		bi.Close()
		return fmt.Errorf("create index %s: %w", ix.dir, err)
	}
	now := time.Now().UTC()
	ix.meta = meta{Schema: schemaVersion, Embedder: ix.embedder.Name(), Dim: ix.embedder.Dim(), Chunking: ix.chunking(), Created: now, Updated: now, Clean: true}
	ix.bleve, ix.vecs, ix.writable = bi, vs, true
	// meta.json last: an index without it is incomplete and found so.
	if err := ix.writeMeta(); err != nil {
		ix.closeFiles()
		return err
	}
	return ix.setup()
}

func (ix *Index) setup() error {
	// Bleve's English analyzer, made cheaper: the same tokens.
	a, err := english.New(ix.bleve.Mapping().AnalyzerNamed(en.AnalyzerName))
	if err != nil {
		ix.closeFiles()
		return fmt.Errorf("open index %s: %w", ix.dir, err)
	}
	ix.analyzer, ix.english = a, a
	ix.textOpts, ix.keywordOpts = textOptions(), keywordOptions()
	// Bleve and the vectors file agree unless a write died between them.
	n, err := ix.bleve.DocCount()
	if err != nil {
		ix.closeFiles()
		return ix.rebuildErr("corrupt", err)
	}
	ix.consistent = n == uint64(ix.vecs.Count())
	return nil
}

func (ix *Index) writeMeta() error {
	b, err := json.MarshalIndent(ix.meta, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(ix.dir, metaFile), append(b, '\n'), 0o600); err != nil {
		return err
	}
	ix.onDisk = ix.meta
	return nil
}

// removeFiles deletes everything in ix.dir but the lock.
func (ix *Index) removeFiles() error {
	ents, err := os.ReadDir(ix.dir)
	if err != nil {
		return fmt.Errorf("reset index %s: %w", ix.dir, err)
	}
	for _, e := range ents {
		if e.Name() == lockFile {
			continue
		}
		if err := os.RemoveAll(filepath.Join(ix.dir, e.Name())); err != nil {
			return fmt.Errorf("reset index %s: %w", ix.dir, err)
		}
	}
	return nil
}

// openWritable reopens Bleve for writing if Open left it read-only.
// The caller holds ix.mu.
func (ix *Index) openWritable() error {
	if ix.writable {
		return nil
	}
	if _, err := ix.fullText(); err != nil {
		return err
	}
	if err := ix.bleve.Close(); err != nil {
		return fmt.Errorf("reopen bleve index for writing: %w", err)
	}
	path := filepath.Join(ix.dir, bleveDir)
	bi, err := openBleve(path, true)
	if err != nil {
		// Opened read-only a moment ago, so damage all the same; searches
		// go on with it read-only if it still opens so.
		ix.bleve, _ = openBleve(path, false)
		return ix.rebuildErr("corrupt", err)
	}
	ix.bleve, ix.writable = bi, true
	return nil
}

// fullText returns Bleve's index, or why there is none: it failed to
// reopen (see openWritable).
func (ix *Index) fullText() (bleve.Index, error) {
	if ix.bleve == nil {
		return nil, ix.rebuildErr("corrupt", errors.New("bleve index could not be reopened"))
	}
	return ix.bleve, nil
}

func (ix *Index) closeFiles() error {
	ix.persisting = nil // what was not persisted is lost with the files
	var err error
	if ix.bleve != nil {
		err = ix.bleve.Close()
		ix.bleve = nil
	}
	ix.writable = false
	if ix.vecs != nil {
		if cerr := ix.vecs.Close(); err == nil {
			err = cerr
		}
		ix.vecs = nil
	}
	return err
}

// Reset empties the index (its version becomes ""), keeping it open.
func (ix *Index) Reset(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	if err := ix.closeFiles(); err != nil {
		return fmt.Errorf("reset index %s: %w", ix.dir, err)
	}
	if err := ix.removeFiles(); err != nil {
		return err
	}
	return ix.create()
}

// Close compacts the vectors file if it is mostly dead records, closes
// the index and lets go of its lock.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	var err error
	if ix.vecs != nil {
		err = ix.vecErr(ix.vecs.Compact(false))
		if err == nil {
			err = ix.markClean(context.Background(), false)
		}
	}
	if cerr := ix.closeFiles(); err == nil {
		err = cerr
	}
	ix.release()
	if err != nil {
		return fmt.Errorf("close index %s: %w", ix.dir, err)
	}
	return nil
}

// Version returns the version recorded by SetVersion: "" for a new or
// reset index.
func (ix *Index) Version() string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.meta.Version
}

// RecordedVersion returns the version recorded in the index in dir
// without opening it (no lock, no checks): what a process that does not
// hold the index can learn of how far it has caught up. The error
// matches fs.ErrNotExist when dir holds no index.
func RecordedVersion(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return "", fmt.Errorf("index version: %w", err)
	}
	var m struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("index version: %s: %w", filepath.Join(dir, metaFile), err)
	}
	return m.Version, nil
}

// SetVersion records the version of the world the index now reflects (an
// opaque string, such as a commit id). Call it after the writes that made
// it so: it waits until they are on disk. After a crash the index
// reports the last version set, and catching up from there (putting
// again what changed since) repeats work, never loses it.
func (ix *Index) SetVersion(ctx context.Context, v string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	if err := ix.vecErr(ix.vecs.Compact(false)); err != nil {
		return fmt.Errorf("set index version: %w", err)
	}
	ix.meta.Version = v
	ix.meta.Updated = time.Now().UTC()
	if err := ix.markClean(ctx, true); err != nil {
		return fmt.Errorf("set index version: %w", err)
	}
	return nil
}

// markClean records in meta.json that Bleve and the vectors file hold the
// same chunks, if they do. Unless force, it leaves meta.json alone when
// it already says so.
func (ix *Index) markClean(ctx context.Context, force bool) error {
	if err := ix.durable(ctx); err != nil {
		return err
	}
	bi, err := ix.fullText()
	if err != nil {
		return err
	}
	n, err := bi.DocCount()
	if err != nil {
		return err
	}
	ix.meta.Clean = ix.consistent && n == uint64(ix.vecs.Count())
	ix.meta.Chunks = ix.vecs.Count()
	if !force && ix.meta == ix.onDisk {
		return nil // a read-only session: nothing to record, no fsync
	}
	return ix.writeMeta()
}

// markDirty records in meta.json that writes are under way, before the
// first of them.
func (ix *Index) markDirty() error {
	if !ix.meta.Clean {
		return nil
	}
	ix.meta.Clean = false
	if err := ix.writeMeta(); err != nil {
		ix.meta.Clean = true
		return err
	}
	return nil
}

// Count returns the number of chunks in the index.
func (ix *Index) Count() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return 0
	}
	return ix.vecs.Count()
}

// Paths returns the paths of the documents in the index, sorted.
func (ix *Index) Paths() []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil
	}
	return ix.vecs.Paths()
}

// Stats describe an index.
type Stats struct {
	Dir         string
	Version     string
	Schema      int
	Embedder    string
	Dim         int
	Chunking    string
	Documents   int    // paths
	Chunks      int    // chunks with vectors
	BleveDocs   uint64 // chunks in Bleve; more than Chunks only after a crash mid-write
	BleveBytes  int64  // on disk
	VectorBytes int64  // on disk
	DeadRecords int    // in the vectors file, until it is compacted
	Updated     time.Time
}

// Stats returns figures about the index.
func (ix *Index) Stats() (Stats, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return Stats{}, ErrClosed
	}
	st := Stats{
		Dir: ix.dir, Version: ix.meta.Version, Schema: ix.meta.Schema,
		Embedder: ix.meta.Embedder, Dim: ix.meta.Dim, Chunking: ix.meta.Chunking,
		Documents: ix.vecs.PathCount(), Chunks: ix.vecs.Count(), DeadRecords: ix.vecs.Dead(),
		Updated: ix.meta.Updated,
	}
	bi, err := ix.fullText()
	if err != nil {
		return st, fmt.Errorf("index stats: %w", err)
	}
	n, err := bi.DocCount()
	if err != nil {
		return st, fmt.Errorf("index stats: %w", err)
	}
	st.BleveDocs = n
	st.BleveBytes = dirSize(filepath.Join(ix.dir, bleveDir))
	for _, name := range ix.vecs.Files() {
		if fi, err := os.Stat(name); err == nil {
			st.VectorBytes += fi.Size()
		}
	}
	return st, nil
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// pendingChunk is a chunk on its way into the index.
type pendingChunk struct {
	entry *vecstore.Entry
	body  string
	doc   *Document
	// With the built-in embedder, title and body as analysed once for
	// Bleve and the embedder; nil otherwise.
	title, text *countedField
}

// chunkScratch is what one goroutine of analyzeEmbed reuses from chunk
// to chunk: the analyzer's and the embedder's scratch memory.
type chunkScratch struct {
	title, body english.Scratch
	embed       embed.Scratch
}

// analyzeEmbed analyses the title and body of each chunk in the English
// analyzer, counts their terms for Bleve and embeds them with the
// built-in embedder from the same tokens, on every processor, and
// returns the vectors. The tokens are made in memory each goroutine
// reuses: what a chunk keeps is its terms' counts (Bleve needs no more:
// nothing is indexed with term vectors).
func (ix *Index) analyzeEmbed(ctx context.Context, h *HashEmbedder, chunks []pendingChunk) ([][]float32, error) {
	workers := ix.parallel(len(chunks), nil)
	scratch := ix.takeScratch(workers)
	defer ix.giveScratch(scratch)
	skip := ix.textOpts.SkipFreqNorm()
	vecs := make([][]float32, len(chunks))
	parallelW(len(chunks), workers, func(w, i int) {
		if i%64 == 0 && ctx.Err() != nil {
			return
		}
		c, s := &chunks[i], scratch[w]
		title, body := []byte(c.entry.Title), []byte(c.body)
		tt, tf := ix.english.AnalyzeCounted(&s.title, title, skip)
		bt, bf := ix.english.AnalyzeCounted(&s.body, body, skip)
		vecs[i] = h.EmbedAnalyzed(c.entry.Title, c.body, tt, bt, &s.embed)
		c.title = &countedField{name: fieldTitle, value: title, opts: ix.textOpts, length: len(tt), freqs: tf}
		c.text = &countedField{name: fieldBody, value: body, opts: ix.textOpts, length: len(bt), freqs: bf}
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("index put: %w", err)
	}
	return vecs, nil
}

// takeScratch returns n analyses no other goroutine uses, kept from
// earlier Puts where it can (their tables are 130 KB each).
func (ix *Index) takeScratch(n int) []*chunkScratch {
	ix.scratchMu.Lock()
	defer ix.scratchMu.Unlock()
	out := make([]*chunkScratch, n)
	for i := range out {
		if k := len(ix.scratch); k > 0 {
			out[i], ix.scratch = ix.scratch[k-1], ix.scratch[:k-1]
		} else {
			out[i] = new(chunkScratch)
		}
	}
	return out
}

func (ix *Index) giveScratch(s []*chunkScratch) {
	ix.scratchMu.Lock()
	defer ix.scratchMu.Unlock()
	ix.scratch = append(ix.scratch, s...)
}

// parallel runs f(i) for i in [0, n) on up to Options.Workers goroutines
// (one for small n) and returns how many it used; with f nil it only
// says how many it would.
func (ix *Index) parallel(n int, f func(i int)) int {
	workers := max(1, min(ix.opts.Workers, n/32))
	if f != nil {
		parallelW(n, workers, func(_, i int) { f(i) })
	}
	return workers
}

// parallelW runs f(w, i) for i in [0, n) on workers goroutines, w being
// the goroutine's number.
func parallelW(n, workers int, f func(w, i int)) {
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// Put adds documents to the index, replacing any chunks their paths had.
// A document whose body has no text is indexed by its title alone.
// Chunks go to Bleve in batches of at most BatchSize, then to the vectors
// file; they are on disk for sure once SetVersion or Close returns.
func (ix *Index) Put(ctx context.Context, docs ...Document) error {
	// The last of several documents with one path wins.
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		if d.Path == "" {
			return fmt.Errorf("index put: document %d has no path", i)
		}
		last[d.Path] = i
	}
	// Chunking, analysis and embedding (maybe a network call) happen
	// outside the lock, so searches go on meanwhile.
	var (
		group   []pendingChunk
		deletes []string // paths whose old chunks go
		ends    []span   // of group's batches
	)
	hash, local := ix.embedder.(*HashEmbedder)
	flush := func() error {
		var vecs [][]float32
		if local {
			// The built-in embedder and Bleve share each chunk's analysis.
			v, err := ix.analyzeEmbed(ctx, hash, group)
			if err != nil {
				return err
			}
			vecs = v
		} else {
			v, err := ix.embed(ctx, group)
			if err != nil {
				return err
			}
			vecs = v
		}
		ix.mu.Lock()
		defer ix.mu.Unlock()
		if ix.closed {
			return ErrClosed
		}
		return ix.write(deletes, group, ends, vecs)
	}
	// Chunking is done for all documents at once, on every processor.
	keep := make([]*Document, 0, len(last))
	for i := range docs {
		if last[docs[i].Path] == i {
			keep = append(keep, &docs[i])
		}
	}
	chunked := make([][]pendingChunk, len(keep))
	ix.parallel(len(keep), func(i int) { chunked[i] = ix.chunkDoc(keep[i]) })
	// Batches of even size, none over BatchSize: each is a Bleve
	// segment, and a small one left over would cost a merge for nothing.
	// Up to Workers of them are written at once, each made a segment on
	// a processor of its own, and their vectors appended in one write.
	total := 0
	for _, c := range chunked {
		total += len(c)
	}
	size := ix.opts.BatchSize
	if total > size {
		size = (total + (total+size-1)/size - 1) / ((total + size - 1) / size)
	}
	from := span{}
	for i, d := range keep {
		if err := ctx.Err(); err != nil {
			return err
		}
		deletes = append(deletes, d.Path)
		group = append(group, chunked[i]...)
		chunked[i] = nil
		if len(group)-from.chunks < size && i < len(keep)-1 {
			continue
		}
		from = span{chunks: len(group), paths: len(deletes)}
		ends = append(ends, from)
		if len(ends) < ix.opts.Workers && i < len(keep)-1 {
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		group, deletes, ends, from = group[:0], deletes[:0], ends[:0], span{}
	}
	return nil
}

// span is where a batch of a write ends in its chunks and paths.
type span struct{ chunks, paths int }

// chunkDoc splits d into pending chunks.
func (ix *Index) chunkDoc(d *Document) []pendingChunk {
	split := chunk.Split
	switch d.Cut {
	case ByTurns:
		split = chunk.SplitDialogue
	case BySection:
		split = chunk.SplitSections
	}
	header := oneLine(d.Header)
	chunks := split(d.Body, d.FirstLine, ix.opts.Chunk)
	if len(chunks) == 0 {
		if strings.TrimSpace(d.Title) == "" {
			return nil
		}
		first := max(d.FirstLine, 1)
		chunks = []chunk.Chunk{{StartLine: first, EndLine: first}}
	}
	var created, updated int64
	if !d.Created.IsZero() {
		created = d.Created.UnixNano()
	}
	if !d.Updated.IsZero() {
		updated = d.Updated.UnixNano()
	}
	tags := append([]string(nil), d.Tags...)
	out := make([]pendingChunk, len(chunks))
	for i, c := range chunks {
		body, tokens := c.Text, c.Tokens
		if header != "" {
			body = withHeader(header, c.Text)
			tokens = EstimateTokens(body)
		}
		out[i] = pendingChunk{
			entry: &vecstore.Entry{
				Path: d.Path, Seq: c.Seq,
				StartLine: c.StartLine, StartCol: c.StartCol, EndLine: c.EndLine, EndCol: c.EndCol,
				Tokens: tokens,
				Title:  d.Title, Kind: d.Kind, Layer: d.Layer, Session: d.Session, Tags: tags,
				Header:  header,
				Created: created, Updated: updated, Importance: d.Importance,
				Hash: textHash(c.Text), // the file's text: FillText compares it
			},
			body: body,
			doc:  d,
		}
	}
	return out
}

// textHash is the FNV-1a hash (64 bits) of a chunk's text, by which
// FillText finds a file changed since it was indexed; unlike hash/fnv's,
// it takes a string without copying it.
func textHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// withHeader puts a chunk's header line before its text.
func withHeader(header, text string) string {
	if header == "" {
		return text
	}
	if text == "" {
		return header
	}
	return header + "\n" + text
}

// oneLine makes s one line, its runs of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// embed returns the unit vectors of chunks' texts.
func (ix *Index) embed(ctx context.Context, chunks []pendingChunk) ([][]float32, error) {
	if len(chunks) == 0 {
		return nil, nil
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = strings.TrimSpace(c.entry.Title + "\n\n" + c.body) // title and chunk text
	}
	vecs, err := ix.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("index put: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("index put: embedder %s returned %d vectors for %d texts", ix.embedder.Name(), len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != ix.embedder.Dim() {
			return nil, fmt.Errorf("index put: embedder %s returned a %d-dimensional vector, want %d", ix.embedder.Name(), len(v), ix.embedder.Dim())
		}
		v = append([]float32(nil), v...)
		embed.Normalize(v)
		vecs[i] = v
	}
	return vecs, nil
}

// write indexes chunks in Bleve (deleting the old chunks of paths
// first), in one batch for each of ends, at once, then appends them,
// with their vectors from vecs, to the vectors file. Neither is on disk
// for sure until durable, which SetVersion and Close call first: a
// process that dies before leaves an index that reflects its last
// version, marked dirty, either file maybe holding chunks the other
// does not (searches skip those only in Bleve; keyword searches miss
// those only in the vectors file), until the documents written since
// that version are put again, as catching up from it does. The caller
// holds ix.mu.
func (ix *Index) write(paths []string, chunks []pendingChunk, ends []span, v [][]float32) error {
	if len(paths) == 0 {
		return nil
	}
	if err := ix.openWritable(); err != nil {
		return fmt.Errorf("index put: %w", err)
	}
	if err := ix.markDirty(); err != nil {
		return fmt.Errorf("index put: %w", err)
	}
	fresh := make(map[string]bool, len(chunks))
	for _, c := range chunks {
		fresh[c.entry.ID()] = true
	}
	batches := make([]*bleve.Batch, len(ends))
	errs := make([]error, len(ends))
	each := func(f func(i int, from, to span)) error {
		var wg sync.WaitGroup
		for i, to := range ends {
			from := span{}
			if i > 0 {
				from = ends[i-1]
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(i, from, to)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	}
	err := each(func(i int, from, to span) {
		b := ix.bleve.NewBatch()
		for _, p := range paths[from.paths:to.paths] {
			for _, id := range ix.staleIDs(p) {
				if !fresh[id] {
					b.Delete(id)
				}
			}
		}
		for k := from.chunks; k < to.chunks; k++ {
			c := &chunks[k]
			if err := ix.batchIndex(b, c); err != nil {
				errs[i] = fmt.Errorf("index put %s: %w", c.entry.Path, err)
				return
			}
		}
		batches[i] = b
	})
	if err != nil {
		return err
	}
	ix.consistent = false // until both writes are done
	persisted := make([]chan error, len(batches))
	err = each(func(i int, _, _ span) {
		b := batches[i]
		if b.Size() == 0 {
			return
		}
		ch := make(chan error, 1)
		b.SetPersistedCallback(func(err error) {
			select {
			case ch <- err:
			default:
			}
		})
		if err := ix.bleve.Batch(b); err != nil {
			errs[i] = fmt.Errorf("index put: bleve batch: %w", err)
			return
		}
		persisted[i] = ch
	})
	for _, ch := range persisted {
		if ch != nil {
			ix.persisting = append(ix.persisting, ch)
		}
	}
	if err != nil {
		return err
	}

	l := ix.vecs.NewLog()
	for i, to := range ends {
		from := span{}
		if i > 0 {
			from = ends[i-1]
		}
		for _, p := range paths[from.paths:to.paths] {
			if ix.vecs.Has(p) {
				l.Delete(p)
			}
		}
		for k := from.chunks; k < to.chunks; k++ {
			l.Put(chunks[k].entry, v[k])
		}
	}
	// Appended, not yet synced: durable syncs it once Bleve's batches
	// are on disk.
	if err := ix.vecErr(ix.vecs.Append(l)); err != nil {
		return fmt.Errorf("index put: %w", err)
	}
	n, err := ix.bleve.DocCount()
	ix.consistent = err == nil && n == uint64(ix.vecs.Count())
	return nil
}

// staleIDs returns the ids of path's chunks in the index: those the
// vectors file knows, and any Bleve has beyond them after a crash.
func (ix *Index) staleIDs(path string) []string {
	ids := ix.vecs.IDs(path)
	n := len(ids)
	if ix.consistent {
		return ids
	}
	// A crash between Bleve and the vectors file can leave chunks only in
	// Bleve; they are numbered on from the known ones, so look for more.
	q := query.NewPrefixQuery(path + "#")
	q.SetField(fieldID)
	req := bleve.NewSearchRequestOptions(q, 10000, 0, false)
	req.Score = "none"
	res, err := ix.bleve.Search(req)
	if err != nil || res.Total == uint64(n) {
		return ids
	}
	seen := make(map[string]bool, n)
	for _, id := range ids {
		seen[id] = true
	}
	for _, h := range res.Hits {
		if !seen[h.ID] {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

// batchIndex adds c to b: through the mapping, or, when c carries its
// analysis, as a document made here with body and title as counted and
// the keyword fields as the mapping makes them (keywordField): the
// mapping walks a map of the fields by reflection, and Bleve's analysis
// made a map, a string and a TokenFreq for each keyword.
func (ix *Index) batchIndex(b *bleve.Batch, c *pendingChunk) error {
	if c.text == nil {
		return b.Index(c.entry.ID(), bleveDoc(*c))
	}
	return b.IndexAdvanced(ix.countedDoc(c))
}

// countedDoc is the document batchIndex makes of a chunk that carries its
// analysis, which it takes from the chunk.
func (ix *Index) countedDoc(c *pendingChunk) *document.Document {
	e := c.entry
	doc := document.NewDocument(e.ID())
	doc.AddField(c.text)
	doc.AddField(c.title)
	c.title, c.text = nil, nil
	for _, f := range []struct{ name, value string }{{fieldKind, e.Kind}, {fieldLayer, e.Layer}, {fieldSession, e.Session}} {
		if f.value != "" {
			doc.AddField(ix.keywordField(f.name, f.value, nil))
		}
	}
	for i, t := range e.Tags {
		doc.AddField(ix.keywordField(fieldTags, t, []uint64{uint64(i)}))
	}
	if e.Created != 0 {
		doc.AddField(ix.keywordField(fieldCreated, dayTerm(c.doc.Created), nil))
	}
	doc.SetIndexed() // as MapDocument does
	return doc
}

// keywordField is what the mapping makes of value in the keyword field
// name (element i of a list has arrayPositions [i]), analysed: one token,
// the whole value.
func (ix *Index) keywordField(name, value string, arrayPositions []uint64) *countedField {
	term := []byte(value)
	tf := &index.TokenFreq{Term: term}
	if !ix.keywordOpts.SkipFreqNorm() {
		tf.SetFrequency(1)
	}
	return &countedField{name: name, value: term, positions: arrayPositions, opts: ix.keywordOpts, length: 1, freqs: index.TokenFrequencies{value: tf}}
}

// countedField is a text field analysed and counted before it reaches
// Bleve (by english.Analyzer.AnalyzeCounted): what a document.TextField
// with the English analyzer is once analysed, without its tokens.
// Analyze has nothing left to do. Its value is the text lowered (Bleve
// reads only its length: the field is not stored).
type countedField struct {
	name      string
	value     []byte
	positions []uint64
	opts      index.FieldIndexingOptions
	length    int
	freqs     index.TokenFrequencies
}

func (f *countedField) Name() string                                     { return f.name }
func (f *countedField) ArrayPositions() []uint64                         { return f.positions }
func (f *countedField) Options() index.FieldIndexingOptions              { return f.opts }
func (f *countedField) Analyze()                                         {}
func (f *countedField) Value() []byte                                    { return f.value }
func (f *countedField) NumPlainTextBytes() uint64                        { return uint64(len(f.value)) }
func (f *countedField) EncodedFieldType() byte                           { return 't' }
func (f *countedField) AnalyzedLength() int                              { return f.length }
func (f *countedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Size is what a document.TextField's is: Bleve's estimate of the memory
// a document holds.
func (f *countedField) Size() int {
	return sizeOfTextField + size.SizeOfPtr + len(f.name) + len(f.positions)*size.SizeOfUint64 + len(f.value) + f.freqs.Size()
}

var sizeOfTextField = int(reflect.TypeFor[document.TextField]().Size())

func bleveDoc(c pendingChunk) map[string]any {
	e := c.entry
	d := map[string]any{
		fieldBody:  c.body,
		fieldTitle: e.Title,
	}
	if e.Kind != "" {
		d[fieldKind] = e.Kind
	}
	if e.Layer != "" {
		d[fieldLayer] = e.Layer
	}
	if e.Session != "" {
		d[fieldSession] = e.Session
	}
	if len(e.Tags) > 0 {
		d[fieldTags] = e.Tags
	}
	if e.Created != 0 {
		d[fieldCreated] = dayTerm(c.doc.Created)
	}
	return d
}

// Delete removes every chunk of the given paths. Paths not in the index
// are ignored.
func (ix *Index) Delete(ctx context.Context, paths ...string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	for start := 0; start < len(paths); start += ix.opts.BatchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := paths[start:min(start+ix.opts.BatchSize, len(paths))]
		if err := ix.write(batch, nil, []span{{paths: len(batch)}}, nil); err != nil {
			return err
		}
	}
	return nil
}
