package anchor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/coderef"
	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	objcache "github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// project is the project's own repository, read with go-git.
type project struct {
	root    string // the work tree's root, absolute
	repo    *git.Repository
	blobs   map[plumbing.Hash]decls               // the declarations of each code blob read
	index   map[plumbing.Hash]map[string][]string // by commit: name -> files declaring it
	close   func() error                          // releases the pack files kept open; nil for none
	files   *files                                // HEAD's paths, for renames
	filesOf plumbing.Hash
}

// release closes what the project keeps open.
func (p *project) release() {
	if p.close != nil {
		p.close()
	}
}

// errNoRepo says the project is in no git repository (or one without
// commits): nothing is anchored, nothing is stale.
var errNoRepo = errors.New("the project is in no git repository")

func openProject(dir string) (*project, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, errNoRepo
	}
	p := &project{root: dir, repo: repo, blobs: make(map[plumbing.Hash]decls), index: make(map[plumbing.Hash]map[string][]string)}
	var wfs billy.Filesystem
	if wt, err := repo.Worktree(); err == nil {
		wfs = wt.Filesystem
		p.root = wfs.Root()
	}
	if r, err := filepath.EvalSymlinks(p.root); err == nil {
		p.root = r
	}
	// Packs stay open: without that go-git opens the pack file again
	// for every object it reads (a walk of the history reads thousands).
	if st, ok := repo.Storer.(*filesystem.Storage); ok {
		kept := filesystem.NewStorageWithOptions(st.Filesystem(), objcache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
		if r, err := git.Open(kept, wfs); err == nil {
			p.repo, p.close = r, kept.Close
		}
	}
	return p, nil
}

// head returns the id of the commit checked out, or errNoRepo before
// the first. It reads no object: a warm check needs only the id.
func (p *project) head() (string, error) {
	ref, err := p.repo.Head()
	if err != nil {
		return "", errNoRepo
	}
	return ref.Hash().String(), nil
}

// commit reads the commit id names; a clone that lacks it (a shallow
// one, say) returns an error.
func (p *project) commit(id string) (*object.Commit, error) {
	h := plumbing.NewHash(id)
	if len(id) != 40 || h.IsZero() {
		return nil, fmt.Errorf("project commit %q: not a full commit id", id)
	}
	c, err := p.repo.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("project commit %s: %w", id, err)
	}
	return c, nil
}

// A Rejection is a path a memory names that cannot be an anchor because
// it lies outside the project.
type Rejection struct {
	ID     string `json:"id"`   // the item's id or the session's
	Path   string `json:"path"` // as the text has it
	Reason string `json:"reason"`
}

func (r Rejection) String() string {
	return fmt.Sprintf("anchor %q in %s: %s; not an anchor", r.Path, r.ID, r.Reason)
}

// maxSymbolFiles is the most files a symbol may be declared in and still
// be an anchor.
const maxSymbolFiles = 3

// resolve turns a candidate into the anchors it names in tree t of
// commit c, none when it names nothing there. reason is why a path was
// rejected, "" if it was not.
func (p *project) resolve(ctx context.Context, c *object.Commit, t *object.Tree, cand coderef.Candidate) (out []Anchor, reason string, err error) {
	if cand.Symbol != "" {
		idx, err := p.declIndex(ctx, c, t)
		if err != nil {
			return nil, "", err
		}
		files := idx[cand.Symbol]
		if len(files) > maxSymbolFiles {
			return nil, "", nil // String, Close, New: too common to say which is meant
		}
		for _, f := range files {
			out = append(out, Anchor{Path: f, Symbol: cand.Symbol})
		}
		return out, "", nil
	}
	rel := cand.Path
	if strings.HasPrefix(rel, "/") {
		r, err := filepath.Rel(p.root, filepath.FromSlash(rel))
		if err != nil || !filepath.IsLocal(r) {
			return nil, p.reject(cand, "an absolute path outside the project"), nil
		}
		rel = filepath.ToSlash(r)
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, p.reject(cand, "outside the project"), nil
	}
	if rel == "." || rel == "" {
		return nil, "", nil
	}
	found, out2, err := p.linkOut(t, rel)
	if err != nil || !found {
		return nil, "", err
	}
	if out2 {
		return nil, "a symbolic link out of the project", nil
	}
	return []Anchor{{Path: rel, Line: cand.Line}}, "", nil
}

// reject says why only for a path the text claims as code: a bare token
// outside the project is prose ("see /etc/hosts"), passed over.
func (p *project) reject(c coderef.Candidate, why string) string {
	if c.Quoted {
		return why
	}
	return ""
}

// linkOut reports whether rel is in tree t, and whether it or a folder
// on its way is a symbolic link that leads out of the project.
func (p *project) linkOut(t *object.Tree, rel string) (found, out bool, err error) {
	parts := strings.Split(rel, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		e, err := t.FindEntry(prefix)
		if err != nil {
			return false, false, nil
		}
		if e.Mode != filemode.Symlink {
			continue
		}
		b, err := p.repo.BlobObject(e.Hash)
		if err != nil {
			return false, false, fmt.Errorf("read link %s: %w", prefix, err)
		}
		target, err := readAll(b, 4096)
		if err != nil {
			return false, false, fmt.Errorf("read link %s: %w", prefix, err)
		}
		dest := string(target)
		if strings.HasPrefix(dest, "/") {
			r, err := filepath.Rel(p.root, dest)
			if err != nil || !filepath.IsLocal(r) {
				return true, true, nil
			}
			continue
		}
		if j := path.Join(path.Dir(prefix), dest); j == ".." || strings.HasPrefix(j, "../") {
			return true, true, nil
		}
	}
	return true, false, nil
}

// declIndex maps each name declared in tree t (of commit c) to the files
// that declare it. Blobs are read once per run, however many commits
// hold them.
func (p *project) declIndex(ctx context.Context, c *object.Commit, t *object.Tree) (map[string][]string, error) {
	if idx, ok := p.index[c.Hash]; ok {
		return idx, nil
	}
	idx := make(map[string][]string)
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("walk the tree of project commit %s: %w", c.Hash, err)
		}
		if !e.Mode.IsFile() || !isCode(name) {
			continue
		}
		d, err := p.blobDecls(e.Hash)
		if err != nil {
			return nil, err
		}
		for n := range d {
			idx[n] = append(idx[n], name)
		}
	}
	p.index[c.Hash] = idx
	return idx, nil
}

// fileDecls returns the declarations of file f in tree t, nil when t has
// no such file.
func (p *project) fileDecls(t *object.Tree, f string) (decls, error) {
	e, err := t.FindEntry(f)
	if err != nil || !e.Mode.IsFile() {
		return nil, nil
	}
	return p.blobDecls(e.Hash)
}

func (p *project) blobDecls(h plumbing.Hash) (decls, error) {
	if d, ok := p.blobs[h]; ok {
		return d, nil
	}
	b, err := p.repo.BlobObject(h)
	if err != nil {
		return nil, fmt.Errorf("read project blob %s: %w", h, err)
	}
	d := decls{}
	if b.Size <= maxCodeFile {
		data, err := readAll(b, maxCodeFile)
		if err != nil {
			return nil, fmt.Errorf("read project blob %s: %w", h, err)
		}
		d = scanDecls(data)
	}
	p.blobs[h] = d
	return d, nil
}

// blobLines returns the lines of blob h, file f's content.
func (p *project) blobLines(h plumbing.Hash, f string) ([]string, error) {
	b, err := p.repo.BlobObject(h)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f, err)
	}
	data, err := readAll(b, 16<<20)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f, err)
	}
	return strings.Split(string(data), "\n"), nil
}

func readAll(b *object.Blob, limit int64) ([]byte, error) {
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, limit))
}

// ages walks the project's history from head along first parents and
// returns, for each of paths, how many commits ago it last changed (0:
// in head itself; a folder changes with what is in it), and for each of
// commits how many commits ago it was made. It stops once it knows them
// all; what it never meets is left out.
func (p *project) ages(ctx context.Context, head *object.Commit, paths, commits []string) (map[string]int, map[string]int, error) {
	wantPath := make(map[string]bool, len(paths))
	for _, q := range paths {
		wantPath[q] = true
	}
	wantCommit := make(map[string]bool, len(commits))
	for _, c := range commits {
		wantCommit[c] = true
	}
	pathAge, commitAge := make(map[string]int), make(map[string]int)
	c := head
	for d := 0; c != nil && (len(wantPath) > 0 || len(wantCommit) > 0); d++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if id := c.Hash.String(); wantCommit[id] {
			commitAge[id] = d
			delete(wantCommit, id)
		}
		var parent *object.Commit
		if c.NumParents() > 0 {
			pc, err := c.Parent(0)
			if err != nil {
				break // a shallow clone's end
			}
			parent = pc
		}
		if len(wantPath) > 0 {
			names, err := changedNames(ctx, parent, c)
			if err != nil {
				return nil, nil, err
			}
			for _, n := range names {
				for q := n; ; q = path.Dir(q) {
					if wantPath[q] {
						pathAge[q] = d
						delete(wantPath, q)
					}
					if !strings.Contains(q, "/") {
						break
					}
				}
			}
		}
		c = parent
	}
	return pathAge, commitAge, nil
}

// changedNames lists the paths commit c changed against parent (nil for
// a root commit).
func changedNames(ctx context.Context, parent, c *object.Commit) ([]string, error) {
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("project commit %s: %w", c.Hash, err)
	}
	pt := &object.Tree{}
	if parent != nil {
		if pt, err = parent.Tree(); err != nil {
			return nil, fmt.Errorf("project commit %s: %w", parent.Hash, err)
		}
	}
	chs, err := object.DiffTreeWithOptions(ctx, pt, t, nil)
	if err != nil {
		return nil, fmt.Errorf("diff project commit %s: %w", c.Hash, err)
	}
	names := make([]string, 0, len(chs))
	for _, ch := range chs {
		if ch.From.Name != "" {
			names = append(names, ch.From.Name)
		}
		if ch.To.Name != "" && ch.To.Name != ch.From.Name {
			names = append(names, ch.To.Name)
		}
	}
	return names, nil
}
