package gitsync

import (
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// limitStorage is the storage a fetch writes through: a pack from the
// remote is streamed to a file of its own while the header of each object
// is read, and handed to go-git only when no object is larger than max.
// go-git's pack parser reads every object whole to index it (a 300 MB
// blob costs 300 MB of heap), so the sizes must be known before it runs.
type limitStorage struct {
	*filesystem.Storage
	max    int64
	tmpDir string
}

// PackfileWriter returns the checking writer of one incoming pack.
func (l *limitStorage) PackfileWriter() (io.WriteCloser, error) {
	if l.max <= 0 {
		return l.Storage.PackfileWriter()
	}
	f, err := os.CreateTemp(l.tmpDir, "tmp_cairn_fetch_")
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	w := &checkedPack{l: l, f: f, pw: pw, done: make(chan error, 1)}
	go func() {
		err := checkPack(pr, l.max)
		if err != nil {
			pr.CloseWithError(err)
		} else {
			io.Copy(io.Discard, pr) // the checksum, and anything after it
		}
		w.done <- err
	}()
	return w, nil
}

// checkedPack writes a pack to a temporary file and to checkPack.
type checkedPack struct {
	l      *limitStorage
	f      *os.File
	pw     *io.PipeWriter
	done   chan error
	failed error
}

func (w *checkedPack) Write(p []byte) (int, error) {
	if w.failed != nil {
		return 0, w.failed
	}
	if _, err := w.pw.Write(p); err != nil {
		w.failed = err
		return 0, err
	}
	if _, err := w.f.Write(p); err != nil {
		w.failed = err
		return 0, err
	}
	return len(p), nil
}

// Close hands the pack to go-git once every object's size was checked.
func (w *checkedPack) Close() error {
	defer os.Remove(w.f.Name())
	defer w.f.Close()
	w.pw.Close()
	if err := <-w.done; err != nil {
		return err
	}
	if w.failed != nil {
		return w.failed
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	pw, err := w.l.Storage.PackfileWriter()
	if err != nil {
		return err
	}
	if _, err := io.Copy(pw, w.f); err != nil {
		pw.Close()
		return err
	}
	return pw.Close()
}

// checkPack reads a pack's object headers and refuses an object larger
// than max (ErrTooLarge). Object contents are streamed, never held: of a
// delta only its first bytes are kept, which give the size of the object
// it makes.
func checkPack(r io.Reader, max int64) error {
	sc := packfile.NewScanner(r)
	_, n, err := sc.Header()
	if err != nil {
		return err
	}
	for range n {
		h, err := sc.NextObjectHeader()
		if err != nil {
			return err
		}
		size := h.Length
		if h.Type.IsDelta() {
			var d deltaHead
			if _, _, err := sc.NextObject(&d); err != nil {
				return err
			}
			size = d.target()
		} else if size <= max {
			if _, _, err := sc.NextObject(io.Discard); err != nil {
				return err
			}
		}
		if size > max {
			what := "an object"
			if h.Type == plumbing.BlobObject {
				what = "a file"
			}
			return fmt.Errorf("%w: its history holds %s of %d bytes, more than sync.max_blob_bytes (%d); nothing was fetched",
				ErrTooLarge, what, size, max)
		}
	}
	return nil
}

// deltaHead keeps the first bytes of a delta: two sizes, the base's and
// the result's, as little-endian base-128 numbers.
type deltaHead struct {
	b [32]byte
	n int
}

func (d *deltaHead) Write(p []byte) (int, error) {
	d.n += copy(d.b[min(d.n, len(d.b)):], p)
	return len(p), nil
}

// target is the size of the object the delta makes; 0 when the delta is
// too short to say (go-git's parser refuses it then).
func (d *deltaHead) target() int64 {
	b := d.b[:min(d.n, len(d.b))]
	var v int64
	for range 2 { // the base's size, then the result's
		v = 0
		shift := 0
		for {
			if len(b) == 0 || shift > 63 {
				return 0
			}
			c := b[0]
			b = b[1:]
			v |= int64(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				break
			}
		}
	}
	return v
}
