package memory

import (
	"context"
	"embed"
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

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/internal/codegit"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/memory/codemark"
	"github.com/cairn-mem/cairn/internal/memory/links"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// DirName is the memory repository's folder inside a project.
const DirName = ".cairn"

// Errors callers distinguish.
var (
	ErrNoMemory  = errors.New("no cairn memory here or above; run cairn init")
	ErrNotFound  = errors.New("no such memory item")
	ErrAmbiguous = errors.New("ambiguous id")
)

// The trailers cairn writes on every checkpoint.
const (
	TrailerSession    = "Cairn-Session"
	TrailerEvent      = "Cairn-Event"
	TrailerCodeCommit = "Cairn-Code-Commit"
	TrailerSchema     = "Cairn-Schema"
)

// TrailerCodeDirty, one per file, is the blob of an edit of the project
// a memory file of the checkpoint names (package codemark).
const TrailerCodeDirty = codemark.Trailer

//go:embed skel
var skel embed.FS

// Memory is one project's memory: its repository and configuration.
type Memory struct {
	Project string // the project folder, parent of Dir
	Dir     string // the memory repository's work tree
	Config  config.Config

	store *gitstore.Store
	warn  func(string)
	now   func() time.Time
	// ageIdentity is the private key's file ("" for crypt's default).
	ageIdentity string
	// encMu owns encSeen, the size and time of the cairn.yaml whose
	// encrypt: section the store follows (FollowEncryption).
	encMu   sync.Mutex
	encSeen [2]int64

	// followers are told of each checkpoint (the search index follows
	// them); see OnCheckpoint.
	followers []func(context.Context, *gitstore.Checkpoint)

	// stop, when set, is called at named points of the write path
	// (pause); a test kills its process there to see the next writer
	// settle what it left.
	stop func(point string)

	cat *catalog.Keeper // the metadata catalogue (catalog.go)

	red struct { // the redactor (Redactor)
		once sync.Once
		r    *redact.Redactor
		err  error
	}

	// UserDir is the user memory's folder (package usermem), whose
	// preferences the context pack layers under the project's; "" for none.
	UserDir string
}

func (m *Memory) pause(point string) {
	if m.stop != nil {
		m.stop(point)
	}
}

// OnCheckpoint has fn called after each checkpoint this Memory makes,
// merges included, so that state derived from the files (the search
// index) can follow without the write path knowing of it. fn runs under
// the write lock; its failures are its own to report.
func (m *Memory) OnCheckpoint(fn func(context.Context, *gitstore.Checkpoint)) {
	m.followers = append(m.followers, fn)
}

func (m *Memory) afterCheckpoint(ctx context.Context, cp *gitstore.Checkpoint) {
	if cp == nil {
		return
	}
	m.followCatalog(ctx, cp)
	for _, fn := range m.followers {
		fn(ctx, cp)
	}
}

// Options tune Open and Init.
type Options struct {
	// Warn receives one-line notices about repaired state. Nil discards.
	Warn func(string)
	// Identity is the author of checkpoints; what it lacks is the user's
	// (CAIRN_AUTHOR_NAME and _EMAIL, else their git identity).
	Identity gitstore.Identity
	// LockTimeout overrides cairn.yaml's lock_timeout when positive.
	LockTimeout time.Duration
	// UserDir is the user memory's folder (usermem.Dir); "" for none.
	UserDir string
	// AgeIdentity is the private key that decrypts encrypted paths;
	// "" means crypt.IdentityFile's.
	AgeIdentity string
}

// Find returns the memory folder for start: start itself when it is a
// memory repository, else the nearest start/.cairn or ancestor's .cairn.
func Find(start string) (string, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	if filepath.Base(abs) == DirName && isRepo(abs) {
		return abs, nil
	}
	for d := abs; ; d = filepath.Dir(d) {
		if c := filepath.Join(d, DirName); isRepo(c) {
			return c, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: %w", start, ErrNoMemory)
		}
	}
}

func isRepo(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ".git"))
	return err == nil && fi.IsDir()
}

// Open opens the memory repository in dir (a .cairn folder).
func Open(ctx context.Context, dir string, opts Options) (*Memory, error) {
	if !isRepo(dir) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoMemory)
	}
	opts.Warn = warnOnceNoKey(links.WarnOnce(opts.Warn))
	if safefile.Private(dir) && opts.Warn != nil {
		opts.Warn(fmt.Sprintf("%s was open to other users; it is 0700 now (memory is private)", dir))
	}
	so, err := storeOptions(dir, opts)
	if err != nil {
		return nil, err
	}
	st, err := gitstore.Open(ctx, dir, so)
	if err != nil {
		return nil, err
	}
	// A writer killed after moving the branch left .git/index behind it;
	// every command, read-only ones too, puts it right before git status
	// (or a user's git commit) reads it.
	if err := st.RepairIndex(ctx); err != nil && opts.Warn != nil {
		opts.Warn(fmt.Sprintf("update git index: %v", err))
	}
	return newMemory(st, opts)
}

// ownedPaths are the memory's own files and folders. A .gitignore can
// come from a remote, so it never keeps them out of a commit: only what
// cairn's own skeleton .gitignore lists (editors' temporary files) does.
// .state/, inbox/ and hooks/ are not among them; the skeleton ignores them.
// The paths cairn purge stopped carrying are, and are ignored.
func ownedPaths() []string {
	return append(append([]string{}, model.ItemRoots...),
		config.File, "README.md", ".gitignore", ".gitattributes", PurgedFile)
}

func storeOptions(dir string, opts Options) (gitstore.Options, error) {
	ign, _ := fs.ReadFile(skel, "skel/gitignore")
	owned, purged := purgedIgnore(dir)
	f, err := encryptFilter(dir, opts.AgeIdentity)
	if err != nil {
		return gitstore.Options{}, err
	}
	o := gitstore.Options{Identity: opts.Identity, Warn: opts.Warn,
		Owned: append(ownedPaths(), owned...), OwnedIgnore: append(strings.Split(string(ign), "\n"), purged...)}
	if f != nil {
		o.Filter = f
	}
	return o, nil
}

func newMemory(st *gitstore.Store, opts Options) (*Memory, error) {
	m := &Memory{
		Project:     filepath.Dir(st.Dir()),
		Dir:         st.Dir(),
		store:       st,
		warn:        opts.Warn,
		ageIdentity: opts.AgeIdentity,
		now:         time.Now,
		UserDir:     opts.UserDir,
	}
	if filepath.Clean(m.UserDir) == m.Dir {
		m.UserDir = "" // the user memory opened as a project's: not layered over itself
	}
	if m.warn == nil {
		m.warn = func(string) {}
	}
	m.cat = catalog.NewKeeper(catalogSource{m}, m.StatePath(""))
	cfg, unknown, err := config.Load(filepath.Join(m.Dir, config.File))
	if w := config.Warning(err, unknown); w != "" {
		m.warn(w)
	}
	if opts.LockTimeout > 0 {
		cfg.LockTimeout = config.Duration(opts.LockTimeout)
	}
	m.Config = cfg
	return m, nil
}

// InitResult says what Init did.
type InitResult struct {
	Created  bool   // the repository was made now
	Excluded string // the project's exclude file that now lists .cairn/, if one was changed
	Commit   string
}

// Init creates the memory repository in project/.cairn with its skeleton
// files and a first commit, and keeps it out of the project's own git
// repository through .git/info/exclude. On an existing memory it changes
// nothing and says so in the result.
func Init(ctx context.Context, project string, opts Options) (*Memory, InitResult, error) {
	project, err := filepath.Abs(project)
	if err != nil {
		return nil, InitResult{}, err
	}
	m, res, err := InitDir(ctx, filepath.Join(project, DirName), opts)
	if err != nil {
		return nil, res, err
	}
	if res.Excluded, err = excludeFromProject(project); err != nil {
		return nil, res, err
	}
	return m, res, nil
}

// InitDir creates a memory repository in dir itself, with Init's
// skeleton and first commit but no project around it: the user memory
// (package usermem). On an existing memory it changes nothing.
func InitDir(ctx context.Context, dir string, opts Options) (*Memory, InitResult, error) {
	var res InitResult
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, res, err
	}
	files := map[string][]byte{}
	for name, dst := range map[string]string{
		"README.md": "README.md", "cairn.yaml": "cairn.yaml", "gitignore": ".gitignore", "gitattributes": ".gitattributes",
	} {
		b, err := fs.ReadFile(skel, "skel/"+name)
		if err != nil {
			return nil, res, err
		}
		files[dst] = b
	}
	opts.Warn = warnOnceNoKey(links.WarnOnce(opts.Warn))
	so, err := storeOptions(dir, opts)
	if err != nil {
		return nil, res, err
	}
	st, created, err := gitstore.Init(ctx, dir, files, "init: cairn memory", so)
	if err != nil {
		return nil, res, err
	}
	res.Created = created
	if created {
		if h, err := st.Resolve("HEAD"); err == nil {
			res.Commit = h
		}
	}
	m, err := newMemory(st, opts)
	return m, res, err
}

// excludeFromProject adds /.cairn/ to the project repository's
// .git/info/exclude, which is never committed, so the user's tracked files
// (.gitignore included) stay untouched. It returns the file it changed.
func excludeFromProject(project string) (string, error) {
	return codegit.Exclude(project, []string{"/.cairn/", "/.cairn", ".cairn/", ".cairn"},
		"# cairn's agent memory is a git repository of its own")
}

// PathArgs is PathArg of each of args; the first that is not a
// repository path is the error.
func (m *Memory) PathArgs(base string, args []string) ([]string, error) {
	var rel []string
	for _, a := range args {
		p, err := m.PathArg(base, a)
		if err != nil {
			return nil, err
		}
		rel = append(rel, p)
	}
	return rel, nil
}

// PathArg turns a path given by the user into a repository path. Like git,
// it takes a relative path from base, the absolute folder the user works
// in, when that lands in the memory; otherwise from the memory's root, so
// "core/facts/x.md" works from the project folder too. With base "" a
// relative path is taken from the memory's root only.
func (m *Memory) PathArg(base, arg string) (string, error) {
	if filepath.IsAbs(arg) {
		return m.store.Rel(arg)
	}
	if base != "" {
		if p, err := m.store.Rel(filepath.Join(base, arg)); err == nil {
			return p, nil
		}
	}
	return gitpath.Clean(path.Clean(filepath.ToSlash(arg)))
}

// ItemRef resolves an item reference a user gave: a path (IsPathRef) is
// taken from base, the folder the user works in, as git takes paths
// (PathArg); an id stays as it is, and so does a path PathArg refuses,
// for Get to say what is wrong with it.
func (m *Memory) ItemRef(base, ref string) string {
	if !IsPathRef(ref) {
		return ref
	}
	if p, err := m.PathArg(base, ref); err == nil {
		return p
	}
	return ref
}

// Store returns the repository underneath, for the FUSE view, which reads
// commits, trees and blobs through fsview.History, and for tests. Every
// other caller goes through Memory's methods.
func (m *Memory) Store() *gitstore.Store { return m.store }

// Close releases the memory.
func (m *Memory) Close() error { return m.store.Close() }

// Lock takes the write lock for a sequence of changes that must not
// interleave with another process's.
func (m *Memory) Lock(ctx context.Context) (func(), error) {
	return m.store.Lock(ctx, time.Duration(m.Config.LockTimeout))
}

// CheckpointOptions describe a checkpoint.
type CheckpointOptions struct {
	Message string   // subject; empty means one made from the changes
	Body    string   // more lines, if any
	Tag     string   // name the checkpoint
	Session string   // the agent session it belongs to
	Event   string   // what caused it: checkpoint, remember, stop, ...
	Paths   []string // only these paths; nil means everything that changed
	Extra   []gitstore.Trailer
	// AllowEmpty commits even when nothing changed: a checkpoint that
	// records a fact in its trailers (cairn stale --confirm).
	AllowEmpty bool
	// Rehash reads every file of Paths again: their encryption changed.
	Rehash bool
}

// Checkpoint commits what changed, and returns gitstore.ErrNothingToDo
// when nothing did.
func (m *Memory) Checkpoint(ctx context.Context, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return m.checkpoint(ctx, opts)
}

func (m *Memory) checkpoint(ctx context.Context, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	if opts.Event == "" {
		opts.Event = "checkpoint"
	}
	// A process that lives long (the daemon) encrypts for the recipients
	// another's cairn keys set, and never again for one it removed; files
	// a hand edit of encrypt: newly encrypts are stored so first.
	if err := m.storeEncrypted(ctx); err != nil {
		return nil, err
	}
	// A message is written to git as a file is: a secret in it (cairn
	// checkpoint -m, the API's and MCP's checkpoint) would be pushed.
	red, err := m.Redactor()
	if err != nil {
		return nil, err
	}
	opts.Message, _ = red.Redact(opts.Message)
	opts.Body, _ = red.Redact(opts.Body)
	var scrub func(p string, data []byte) []byte
	if opts.Paths == nil {
		// A checkpoint of the whole work tree takes hand edits, which
		// no write of cairn's redacted: a key pasted into a note would
		// be pushed with it. cairn's own batches name their paths and
		// were redacted as written (a session's transcript, megabytes,
		// is not read twice at every capture).
		scrub = func(p string, data []byte) []byte {
			out, found := red.File(data)
			if len(found) > 0 {
				m.warn(fmt.Sprintf("%s: redacted %d secret(s) before committing it (%s)", p, len(found), found[0].Kind))
			}
			return out
		}
	}
	code, dirty := codegit.State(m.Project, m.codeNamed(opts.Paths))
	trailers := []gitstore.Trailer{
		{Key: TrailerSession, Value: opts.Session},
		{Key: TrailerEvent, Value: opts.Event},
		{Key: TrailerCodeCommit, Value: code},
	}
	for _, d := range dirty {
		trailers = append(trailers, gitstore.Trailer{Key: TrailerCodeDirty, Value: codemark.Value(d.Path, d.Blob)})
	}
	trailers = append(trailers, opts.Extra...)
	trailers = append(trailers, gitstore.Trailer{Key: TrailerSchema, Value: strconv.Itoa(model.SchemaVersion)})
	cp, err := m.store.Checkpoint(ctx, gitstore.CheckpointOptions{
		Subject:    opts.Message,
		Body:       opts.Body,
		Trailers:   trailers,
		Paths:      opts.Paths,
		Tag:        opts.Tag,
		AllowEmpty: opts.AllowEmpty,
		Rehash:     opts.Rehash,
		Scrub:      scrub,
	})
	if err == nil {
		m.afterCheckpoint(ctx, cp)
	}
	return cp, err
}

// Remember writes a new item and, unless configured otherwise, commits it.
// Missing id, times and defaults are filled in.
func (m *Memory) Remember(ctx context.Context, it *model.Item) (*gitstore.Checkpoint, error) {
	now := m.now()
	if it.ID == "" {
		it.ID = model.NewID(now)
	}
	if it.Created.IsZero() {
		it.Created = now.UTC().Truncate(time.Second)
	}
	if it.Updated.IsZero() {
		it.Updated = it.Created
	}
	if it.Schema == 0 {
		it.Schema = model.SchemaVersion
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	// The write model redacts the title and the body (PutItem).
	p, err := tx.PutItem(it, "")
	if err != nil {
		return nil, err
	}
	return tx.commitItem(ctx, CheckpointOptions{
		Message: "remember: " + m.subject(it.Kind, it.Title, it.ID, p),
		Event:   "remember",
		Session: it.Session,
	})
}

// Filter selects items for List.
type Filter struct {
	Kind    model.Kind
	Layer   model.Layer
	Session string
	Tag     string
	// Bodies reads each item's file whole, for its body and the front
	// matter's comments and unknown keys (Marshal writes them back).
	Bodies bool
}

func (f Filter) match(e *model.Entry) bool {
	it := e.Item
	return (f.Kind == "" || it.Kind == f.Kind) &&
		(f.Layer == "" || e.Layer == f.Layer) &&
		(f.Session == "" || it.Session == f.Session) &&
		(f.Tag == "" || slices.Contains(it.Tags, f.Tag))
}

// List returns the items that match f, newest first, read from the
// catalogue (Catalog): without their bodies unless f.Bodies. Files that
// cannot be parsed are reported in problems, one *ParseError each, and
// skipped: one broken file never hides the rest.
func (m *Memory) List(ctx context.Context, f Filter) (items []model.Entry, problems []error, err error) {
	var roots []string
	if f.Layer == model.LayerCore {
		roots = []string{"core"}
	}
	rows, err := m.Catalog(ctx, roots...)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		switch r.Type {
		case catalog.Broken:
			problems = append(problems, r.ParseError())
			continue
		case catalog.Item:
		default:
			continue
		}
		e := r.Entry()
		if !f.match(&e) {
			continue
		}
		if f.Bodies {
			data, err := m.store.ReadFile(r.Path)
			if errors.Is(err, gitstore.ErrNotFound) || m.WarnLink(err) {
				continue // removed meanwhile
			}
			if err != nil {
				return nil, problems, fmt.Errorf("read %s: %w", r.Path, err)
			}
			if e.Item, err = model.Parse(r.Path, data); err != nil {
				problems = append(problems, err)
				continue
			}
		}
		items = append(items, e)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i].Item, items[j].Item
		if !a.Created.Equal(b.Created) {
			return a.Created.After(b.Created)
		}
		return a.ID > b.ID
	})
	return items, problems, nil
}

// Get finds an item by id, a unique prefix or suffix of it (six characters
// or more: a ULID's first ten are its time, so the end is what tells items
// made together apart), or a path.
func (m *Memory) Get(ctx context.Context, ref string) (*model.Entry, error) {
	p, err := m.locate(ctx, ref)
	if err != nil {
		return nil, err
	}
	data, err := m.store.ReadFile(p)
	if err != nil {
		if errors.Is(err, gitstore.ErrNotFound) {
			return nil, fmt.Errorf("%s: %w", ref, ErrNotFound)
		}
		return nil, err
	}
	it, err := model.Parse(p, data)
	if err != nil {
		return nil, err
	}
	return &model.Entry{Item: it, Path: p, Layer: model.LayerOf(p)}, nil
}

// IsPathRef reports whether an item reference names a file rather than
// an id: it has a slash or ends in .md.
func IsPathRef(ref string) bool {
	return strings.Contains(ref, "/") || strings.HasSuffix(ref, ".md")
}

// locate turns an id, id prefix or path into a repository path. A
// relative path is the repository's (callers that take paths from a user
// resolve them first with PathArg).
func (m *Memory) locate(ctx context.Context, ref string) (string, error) {
	if IsPathRef(ref) {
		return m.PathArg("", ref)
	}
	want := strings.ToUpper(ref)
	if len(want) < 6 {
		return "", fmt.Errorf("%q: %w (give at least 6 characters of the id)", ref, ErrNotFound)
	}
	var found []string
	err := m.walkNames(ctx, func(p string) {
		if id, ok := model.IDFromPath(p); ok && (strings.HasPrefix(id, want) || strings.HasSuffix(id, want)) {
			found = append(found, p)
		}
	})
	if err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%s: %w", ref, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s matches %d items (%s, ...): %w", ref, len(found), found[0], ErrAmbiguous)
}

func (m *Memory) walkNames(ctx context.Context, fn func(p string)) error {
	for _, root := range model.ItemRoots {
		err := m.WalkFiles(ctx, root, func(p string, d fs.DirEntry) error {
			if d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			fn(p)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Forget deletes an item and commits the deletion. History keeps it.
func (m *Memory) Forget(ctx context.Context, ref string) (*model.Entry, *gitstore.Checkpoint, error) {
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.End()
	e, err := m.Get(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	tx.Remove(e.Path)
	cp, err := tx.commitItem(ctx, CheckpointOptions{
		Message: "forget: " + m.subject(e.Item.Kind, e.Item.Title, e.Item.ID, e.Path),
		Event:   "forget",
		Session: e.Item.Session,
	})
	if err != nil {
		return nil, nil, err
	}
	return e, cp, nil
}

// Update writes an item back after a change (an edit, a new importance),
// redacted as Remember's are. When its kind or title moved its file, the
// old file goes, in the same commit.
func (m *Memory) Update(ctx context.Context, e *model.Entry, event string) (*gitstore.Checkpoint, error) {
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	it := e.Item
	it.Updated = m.now().UTC().Truncate(time.Second)
	at := e.Path
	if model.LayerOf(e.Path) == model.LayerCore {
		at = "" // core items are named after their kind and title
	}
	newPath, err := tx.PutItem(it, at)
	if err != nil {
		return nil, err
	}
	if newPath != e.Path {
		tx.Remove(e.Path)
	}
	cp, err := tx.commitItem(ctx, CheckpointOptions{
		Message: event + ": " + m.subject(it.Kind, it.Title, it.ID, newPath),
		Event:   event,
		Session: it.Session,
	})
	if err != nil {
		return nil, err
	}
	e.Path = newPath
	return cp, nil
}

// Status lists what the next checkpoint would commit.
func (m *Memory) Status(ctx context.Context) ([]gitstore.FileChange, error) {
	return m.store.Status(ctx)
}

// Now is the memory's clock (tests set it).
func (m *Memory) Now() time.Time { return m.now() }

// Warn reports a one-line notice through Options.Warn.
func (m *Memory) Warn(msg string) { m.warn(msg) }

// CheckpointHeld is Checkpoint for a caller that holds the write lock
// (Lock or LockSettled) already.
func (m *Memory) CheckpointHeld(ctx context.Context, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	return m.checkpoint(ctx, opts)
}

// Followed tells the checkpoint's followers (see OnCheckpoint) of a
// commit made without Checkpoint: a merge.
func (m *Memory) Followed(ctx context.Context, cp *gitstore.Checkpoint) { m.afterCheckpoint(ctx, cp) }

// SetClock replaces the memory's clock: tests use it to age sessions.
func (m *Memory) SetClock(now func() time.Time) { m.now = now }
