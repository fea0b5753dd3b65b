package docs

import (
	"context"
	"runtime"
	"sync"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/model"
)

// A Loaded is a file read and turned into a document by Load.
type Loaded struct {
	Path string
	Doc  indexer.Document
	// OK is false when the file adds nothing to the index (see
	// Document), was not read (Err) or is a prompts.md its transcript
	// repeats (Repeated: it is not read at all).
	OK bool
	// Size is the file's size, which may exceed the data read.
	Size int64
	// Err is read's error; Doc is then unset.
	Err error
}

// Load reads the files at paths (sorted, as repository paths are) with
// read, and turns each into its document as Document does, on up to
// workers goroutines (0 means four per processor). Its results are in the
// order of paths, and are what Document called on each path in turn with
// one Sessions would give: the files of one session folder, which share
// what Sessions learns of it, are read by one goroutine in order, and
// each other file is alone. read must be safe for concurrent use; Load
// itself warns of nothing, so that its caller can warn in order.
func Load(ctx context.Context, root string, paths []string, workers int, read func(p string) (data []byte, size int64, err error)) ([]Loaded, error) {
	// Groups of consecutive paths in one session folder: sorted paths
	// keep a folder's files together.
	var groups [][2]int
	for i := 0; i < len(paths); {
		j := i + 1
		if dir, _ := SessionDir(paths[i]); dir != "" {
			for j < len(paths) {
				if d, _ := SessionDir(paths[j]); d != dir {
					break
				}
				j++
			}
		}
		groups = append(groups, [2]int{i, j})
		i = j
	}
	if workers <= 0 {
		// Several a processor: reading files not in the page cache is
		// mostly waiting for the disk, which serves many at once.
		workers = 4 * runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(groups)))
	out := make([]Loaded, len(paths))
	next := make(chan [2]int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				// A Sessions per folder: it learns of that folder alone.
				s := NewSessions(root)
				// The session's transcript first, which its summary
				// would read again (it sorts before), as what reading it
				// would give when it is whole.
				tr, pre := -1, preread{}
				if dir, _ := SessionDir(paths[g[0]]); dir != "" {
					for i := g[0]; i < g[1]; i++ {
						if paths[i] == dir+"/"+model.TranscriptFile {
							tr = i
							pre.data, pre.size, pre.err = read(paths[i])
							if pre.err == nil && int64(len(pre.data)) == pre.size {
								s.seed(dir, string(pre.data))
							}
						}
					}
				}
				for i := g[0]; i < g[1]; i++ {
					r := read
					if i == tr {
						r = pre.read
					}
					out[i] = load(paths[i], s, r)
				}
			}
		}()
	}
	for _, g := range groups {
		if ctx.Err() != nil {
			break
		}
		next <- g
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// preread is a file read already.
type preread struct {
	data []byte
	size int64
	err  error
}

func (p preread) read(string) ([]byte, int64, error) { return p.data, p.size, p.err }

// LoadAhead loads paths as Load does, window files at a time, and calls
// fn with each window in turn while it loads the next: the indexing of
// one and the reading of the next share the processors. It stops at
// fn's first error, or when ctx ends, and returns it.
func LoadAhead(ctx context.Context, root string, paths []string, window int, read func(p string) ([]byte, int64, error), fn func([]Loaded) error) error {
	type loaded struct {
		files []Loaded
		err   error
	}
	ctx, cancel := context.WithCancel(ctx)
	next := make(chan loaded, 1)
	defer func() {
		cancel()
		for range next { // until the reader has stopped
		}
	}()
	go func() {
		defer close(next)
		for i := 0; i < len(paths); i += window {
			files, err := Load(ctx, root, paths[i:min(i+window, len(paths))], 0, read)
			select {
			case next <- loaded{files, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for w := range next {
		if w.err != nil {
			return w.err
		}
		if err := fn(w.files); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func load(p string, s *Sessions, read func(string) ([]byte, int64, error)) Loaded {
	l := Loaded{Path: p}
	if Repeated(p, s) {
		return l // before reading it
	}
	data, size, err := read(p)
	if err != nil {
		l.Err = err
		return l
	}
	l.Size = size
	l.Doc, l.OK = Document(p, data, s)
	return l
}
