package watcher

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// tailLen is how many bytes before a cursor's offset it fingerprints.
const tailLen = 64

// ErrStale is returned by Cursors.Commit when the file is no longer the one
// the range was read from (replaced, or shrunk below the range's end).
// Nothing is saved: the watcher starts that file over anyway.
var ErrStale = errors.New("file changed since the range was read")

// Cursor is how far a watched file has been processed, and which file that
// was: where a tail resumes after a restart.
type Cursor struct {
	Schema   int       `json:"schema"`
	Path     string    `json:"path"`
	Offset   int64     `json:"offset"` // processed up to here: the end of a complete line
	Size     int64     `json:"size"`   // the file's size when the cursor was saved
	Device   uint64    `json:"device,omitempty"`
	Inode    uint64    `json:"inode,omitempty"`
	ModTime  time.Time `json:"mtime,omitzero"`
	LastUUID string    `json:"last_uuid,omitempty"`
	// Tail fingerprints the bytes just before Offset, so that a file
	// rewritten in place to at least the same size is noticed.
	Tail    string    `json:"tail,omitempty"`
	Updated time.Time `json:"updated,omitzero"`
}

// Change is what happened to a file since its cursor.
type Change int

// The changes Check reports. NewFile, Truncated and Replaced restart the file
// from offset 0.
const (
	Unchanged Change = iota // same file, same size
	Grown                   // same file, longer: resume at the cursor
	NewFile                 // no cursor: a file not seen before
	Truncated               // same file, but shorter than the cursor, or its bytes before the cursor changed
	Replaced                // another file (device or inode) has the name now
)

func (c Change) String() string {
	switch c {
	case Unchanged:
		return "unchanged"
	case Grown:
		return "grown"
	case NewFile:
		return "new"
	case Truncated:
		return "truncated"
	case Replaced:
		return "replaced"
	}
	return fmt.Sprintf("Change(%d)", int(c))
}

// Restart reports whether the change makes the file start over at 0.
func (c Change) Restart() bool { return c >= NewFile }

// Check compares the cursor with the file f is now, and returns what
// changed and the offset to read from: the cursor's offset, or 0 when the
// file starts over. A nil cursor gives NewFile.
func (c *Cursor) Check(f *os.File) (Change, int64, error) {
	if c == nil {
		return NewFile, 0, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return Unchanged, c.Offset, err
	}
	dev, ino := fileID(fi)
	switch {
	case (c.Device != 0 || c.Inode != 0) && (dev != c.Device || ino != c.Inode):
		return Replaced, 0, nil
	case fi.Size() < c.Offset:
		return Truncated, 0, nil
	}
	if c.Tail != "" {
		t, err := tailHash(f, c.Offset)
		if err != nil {
			return Unchanged, c.Offset, err
		}
		if t != c.Tail {
			return Truncated, 0, nil
		}
	}
	if fi.Size() == c.Offset {
		return Unchanged, c.Offset, nil
	}
	return Grown, c.Offset, nil
}

// tailHash fingerprints the up to tailLen bytes before off.
func tailHash(r io.ReaderAt, off int64) (string, error) {
	n := min(off, tailLen)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, off-n); err != nil {
		return "", err
	}
	return fingerprint(buf), nil
}

func fingerprint(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// Cursors stores one cursor per watched file, each in a file of its own in
// a folder (<memory>/.state/cursors), named by a hash of the file's path.
// Its methods are safe for concurrent use.
type Cursors struct {
	dir string
}

// OpenCursors opens (creating it if needed) the cursor folder dir.
func OpenCursors(dir string) (*Cursors, error) {
	dir, err := filepath.Abs(dir)
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return nil, fmt.Errorf("open cursors: %w", err)
	}
	return &Cursors{dir: dir}, nil
}

// Dir returns the cursor folder.
func (s *Cursors) Dir() string { return s.dir }

func (s *Cursors) file(path string) string {
	h := sha1.Sum([]byte(path))
	return hex.EncodeToString(h[:]) + ".json"
}

// Load returns the cursor of the file at path, or nil when there is none.
func (s *Cursors) Load(path string) (*Cursor, error) {
	name := filepath.Join(s.dir, s.file(path))
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load cursor: %w", err)
	}
	c, err := DecodeCursor(data)
	if err != nil {
		return nil, fmt.Errorf("load cursor %s: %w", name, err)
	}
	if c.Path != path {
		return nil, fmt.Errorf("load cursor %s: it is for %q, not %q", name, c.Path, path)
	}
	return c, nil
}

// DecodeCursor reads a cursor file's content.
func DecodeCursor(data []byte) (*Cursor, error) {
	var c Cursor
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("decode cursor: %s", jsonWhere(data, err))
	}
	if c.Schema == 0 {
		c.Schema = Schema
	}
	switch {
	case c.Schema < 0 || c.Schema > Schema:
		return nil, fmt.Errorf("cursor schema %d is not supported (this cairn reads up to %d)", c.Schema, Schema)
	case !filepath.IsAbs(c.Path) || filepath.Clean(c.Path) != c.Path || strings.IndexByte(c.Path, 0) >= 0:
		return nil, fmt.Errorf("cursor path %q is not a clean absolute path", c.Path)
	case c.Offset < 0 || c.Size < 0:
		return nil, fmt.Errorf("cursor offset %d or size %d is negative", c.Offset, c.Size)
	}
	return &c, nil
}

// Commit records that the lines of r.Path up to r.To are processed, and
// that the last of them has the uuid r.LastUUID (if known). Call it only
// once their effect is durable; after a restart the watcher resumes at the
// last committed offset, so what was handed out but not committed comes
// again (consumers dedupe by line uuid). Commit the ranges of one file in
// order. When r.Device or r.Inode is set and the file at r.Path is another
// one now, or the file is shorter than r.To, nothing is saved and the
// error wraps ErrStale. The fingerprint of the bytes before r.To is read
// now: a file rewritten in place between the read and the commit goes
// unnoticed (Claude Code only appends).
func (s *Cursors) Commit(r Range) error {
	if !filepath.IsAbs(r.Path) || r.To < 0 {
		return fmt.Errorf("commit cursor: bad range %s", r.Key())
	}
	f, err := os.Open(r.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("commit cursor %s: %w", r.Path, ErrStale)
	}
	if err != nil {
		return fmt.Errorf("commit cursor: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("commit cursor: %w", err)
	}
	dev, ino := fileID(fi)
	if (r.Device != 0 || r.Inode != 0) && (dev != r.Device || ino != r.Inode) || fi.Size() < r.To {
		return fmt.Errorf("commit cursor %s: %w", r.Path, ErrStale)
	}
	tail, err := tailHash(f, r.To)
	if err != nil {
		return fmt.Errorf("commit cursor %s: %w", r.Path, err)
	}
	return s.save(Cursor{
		Schema:   Schema,
		Path:     r.Path,
		Offset:   r.To,
		Size:     fi.Size(),
		Device:   dev,
		Inode:    ino,
		ModTime:  fi.ModTime().UTC(),
		LastUUID: r.LastUUID,
		Tail:     tail,
		Updated:  time.Now().UTC(),
	})
}

func (s *Cursors) save(c Cursor) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("save cursor: %w", err)
	}
	if err := safefile.WriteSync(filepath.Join(s.dir, s.file(c.Path)), append(data, '\n'), 0o600, safefile.SyncFile); err != nil {
		return fmt.Errorf("save cursor for %s: %w", c.Path, err)
	}
	return nil
}

// Remove forgets the cursor of path: the file will be read from the start.
func (s *Cursors) Remove(path string) error {
	err := os.Remove(filepath.Join(s.dir, s.file(path)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove cursor: %w", err)
	}
	return nil
}

// List returns all stored cursors. Unreadable cursor files are skipped and
// reported together in the error.
func (s *Cursors) List() ([]Cursor, error) {
	all, err := names(s.dir)
	if err != nil {
		return nil, fmt.Errorf("list cursors: %w", err)
	}
	var out []Cursor
	var errs []error
	for _, n := range all {
		data, err := os.ReadFile(filepath.Join(s.dir, n))
		if err == nil {
			var c *Cursor
			if c, err = DecodeCursor(data); err == nil {
				out = append(out, *c)
				continue
			}
		}
		errs = append(errs, fmt.Errorf("%s: %w", n, err))
	}
	return out, errors.Join(errs...)
}
