package fsview

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"time"
)

// The io/fs interfaces a View implements.
var (
	_ fs.FS         = (*View)(nil)
	_ fs.ReadDirFS  = (*View)(nil)
	_ fs.ReadFileFS = (*View)(nil)
	_ fs.StatFS     = (*View)(nil)
	_ fs.ReadLinkFS = (*View)(nil)
)

func pathErr(op, name string, err error) error {
	if errors.Is(err, errNotDir) {
		err = errNotDir
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

func (v *View) resolve(op, name string, follow bool) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, fs.ErrInvalid)
	}
	n, err := v.walk(v.ctx, name, follow)
	if err != nil {
		return nil, pathErr(op, name, err)
	}
	return n, nil
}

// Open opens a file or folder of the view, following symbolic links.
func (v *View) Open(name string) (fs.File, error) {
	n, err := v.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	info, err := v.info(v.ctx, n)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if n.isDir() {
		return &dirFile{v: v, n: n, info: info}, nil
	}
	b, err := v.read(v.ctx, n)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return &file{Reader: bytes.NewReader(b), info: info}, nil
}

// ReadFile returns the content of a file, following symbolic links.
func (v *View) ReadFile(name string) ([]byte, error) {
	n, err := v.resolve("readfile", name, true)
	if err != nil {
		return nil, err
	}
	if n.isDir() {
		return nil, pathErr("readfile", name, errIsDir)
	}
	b, err := v.read(v.ctx, n)
	if err != nil {
		return nil, pathErr("readfile", name, err)
	}
	return bytes.Clone(b), nil
}

var errIsDir = errors.New("is a directory")

// ReadDir lists a folder, sorted by name.
func (v *View) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := v.resolve("readdir", name, true)
	if err != nil {
		return nil, err
	}
	return v.dirEntries(v.ctx, n, name)
}

func (v *View) dirEntries(ctx context.Context, n *node, name string) ([]fs.DirEntry, error) {
	cs, err := v.readDir(ctx, n)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	out := make([]fs.DirEntry, len(cs))
	for i, c := range cs {
		out[i] = dirEntry{v: v, n: c}
	}
	return out, nil
}

// Stat describes a file, following symbolic links.
func (v *View) Stat(name string) (fs.FileInfo, error) {
	n, err := v.resolve("stat", name, true)
	if err != nil {
		return nil, err
	}
	return v.info(v.ctx, n)
}

// Lstat describes a file without following a final symbolic link.
func (v *View) Lstat(name string) (fs.FileInfo, error) {
	n, err := v.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return v.info(v.ctx, n)
}

// ReadLink returns the target of a symbolic link.
func (v *View) ReadLink(name string) (string, error) {
	n, err := v.resolve("readlink", name, false)
	if err != nil {
		return "", err
	}
	if n.kind != kLink {
		return "", pathErr("readlink", name, fs.ErrInvalid)
	}
	return n.target, nil
}

func (v *View) info(ctx context.Context, n *node) (*fileInfo, error) {
	size, err := v.size(ctx, n)
	if err != nil {
		return nil, err
	}
	return &fileInfo{name: n.name(), size: size, mode: n.mode, mtime: n.mtime}, nil
}

type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

type dirEntry struct {
	v *View
	n *node
}

func (d dirEntry) Name() string               { return d.n.name() }
func (d dirEntry) IsDir() bool                { return d.n.isDir() }
func (d dirEntry) Type() fs.FileMode          { return d.n.mode.Type() }
func (d dirEntry) Info() (fs.FileInfo, error) { return d.v.info(d.v.ctx, d.n) }
func (d dirEntry) String() string             { return fs.FormatDirEntry(d) }

type file struct {
	*bytes.Reader
	info *fileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type dirFile struct {
	v       *View
	n       *node
	info    *fileInfo
	entries []fs.DirEntry
	read    bool
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, pathErr("read", d.n.path, errIsDir)
}

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		es, err := d.v.dirEntries(d.v.ctx, d.n, d.n.path)
		if err != nil {
			return nil, err
		}
		d.entries, d.read = es, true
	}
	if n <= 0 {
		es := d.entries
		d.entries = nil
		return es, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	es := d.entries[:n]
	d.entries = d.entries[n:]
	return es, nil
}
