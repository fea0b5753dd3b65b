package loose

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// A Writer writes loose git objects the way git's core.fsyncMethod=batch
// does: each object's data is handed to the disk as it is written
// (sync_file_range, which does not wait), and Flush issues one fsync,
// whose journal commit waits for that data and makes every object and
// rename before it durable, before any ref points at them. A checkpoint
// then pays for one fsync instead of one per object. Where
// sync_file_range is not available, Flush syncs each object.
type Writer struct {
	dir     string // .git/objects
	has     func(plumbing.Hash) bool
	pending []string
	dirs    map[string]bool
	batch   bool // every pending object's writeback was started
	buf     bytes.Buffer
	zw      *zlib.Writer // reused: a new one allocates about 1 MB
}

// NewWriter returns a writer of loose objects into the repository whose
// git folder is gitDir. It skips an object that is loose there already,
// or that has reports (nil: none).
func NewWriter(gitDir string, has func(plumbing.Hash) bool) *Writer {
	return &Writer{dir: filepath.Join(gitDir, "objects"), has: has, dirs: map[string]bool{}, batch: true}
}

// Hash returns the id of the object of type t holding data.
func Hash(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write(t.Bytes())
	h.Write([]byte{' '})
	h.Write(strconv.AppendInt(nil, int64(len(data)), 10))
	h.Write([]byte{0})
	h.Write(data)
	var sum plumbing.Hash
	h.Sum(sum[:0])
	return sum
}

// Write stores an object of type t and returns its id. An object that
// exists already is not written again.
func (w *Writer) Write(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := Hash(t, data)
	hex := h.String()
	sub := filepath.Join(w.dir, hex[:2])
	name := filepath.Join(sub, hex[2:])
	if _, err := os.Stat(name); err == nil {
		return h, nil
	}
	if w.has != nil && w.has(h) {
		return h, nil
	}
	w.buf.Reset()
	if w.zw == nil {
		w.zw, _ = zlib.NewWriterLevel(&w.buf, zlib.BestSpeed)
	} else {
		w.zw.Reset(&w.buf)
	}
	hdr := append(append(t.Bytes(), ' '), strconv.Itoa(len(data))...)
	w.zw.Write(append(hdr, 0))
	w.zw.Write(data)
	if err := w.zw.Close(); err != nil {
		return h, fmt.Errorf("compress object %s: %w", hex, err)
	}
	buf := &w.buf
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return h, fmt.Errorf("write object %s: %w", hex, err)
	}
	w.dirs[sub] = true
	f, err := os.CreateTemp(sub, "tmp_obj_")
	if err != nil {
		return h, fmt.Errorf("write object %s: %w", hex, err)
	}
	_, err = f.Write(buf.Bytes())
	if err == nil {
		err = f.Chmod(0o444)
	}
	if err == nil && w.batch {
		if StartWriteback(f) != nil {
			w.batch = false
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return h, fmt.Errorf("write object %s: %w", hex, err)
	}
	w.pending = append(w.pending, name)
	return h, nil
}

// Flush makes the objects written so far durable. No ref may point at
// them before it returns.
func (w *Writer) Flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	if w.batch {
		last := w.pending[len(w.pending)-1]
		w.pending, w.dirs = w.pending[:0], map[string]bool{}
		f, err := os.Open(last)
		if err != nil {
			return fmt.Errorf("sync objects: %w", err)
		}
		defer f.Close()
		if err := f.Sync(); err != nil {
			return fmt.Errorf("sync objects: %w", err)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make([]error, len(w.pending)+len(w.dirs))
	i := 0
	// Syncs in parallel share the file system's journal commits; a bound
	// keeps a large import from starting a goroutine per object.
	sem := make(chan struct{}, 32)
	sync1 := func(i int, name string) {
		defer wg.Done()
		sem <- struct{}{}
		defer func() { <-sem }()
		f, err := os.Open(name)
		if err != nil {
			errs[i] = err
			return
		}
		errs[i] = f.Sync()
		f.Close()
	}
	for _, name := range w.pending {
		wg.Add(1)
		go sync1(i, name)
		i++
	}
	for d := range w.dirs {
		wg.Add(1)
		go sync1(i, d)
		i++
	}
	wg.Wait()
	w.pending, w.dirs = w.pending[:0], map[string]bool{}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sync objects: %w", err)
	}
	return nil
}
