package walk

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/cairn-mem/cairn/internal/safefile"
	"golang.org/x/sys/unix"
)

// File is a work-tree file found by Walk.
type File struct {
	Path string // repository path
	Mode uint32 // git mode
	statcache.Stat
}

// Walk lists the files under root (a repository path; "" is the whole
// tree) of the work tree at dir, in no particular order. Top-level
// folders named in skip are left out, and so is a root inside one. At
// 100,000 files the directory reads and stat calls are most of a
// checkpoint's cost, so it makes them with raw system calls (os.File
// registers every folder with the poller) from a few workers sharing a
// stack of folders.
func Walk(ctx context.Context, dir, root string, skip map[string]bool) ([]File, error) {
	if root != "" {
		var st unix.Stat_t
		err := unix.Lstat(filepath.Join(dir, filepath.FromSlash(root)), &st)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", root, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			first, _, _ := strings.Cut(root, "/")
			mode, ok := GitMode(uint32(st.Mode))
			if !ok || skip[first] {
				return nil, nil
			}
			return []File{{root, mode, statcache.StatOf(&st)}}, nil
		}
	}
	w := &walker{dir: dir, skip: skip, stack: []string{root}}
	w.cond = sync.NewCond(&w.mu)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(ctx)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(w.errs) > 0 {
		return nil, errors.Join(w.errs...)
	}
	return w.out, nil
}

type walker struct {
	dir  string          // the work tree's root
	skip map[string]bool // top-level folders left out

	mu     sync.Mutex
	cond   *sync.Cond
	stack  []string // folders to read
	busy   int      // workers reading a folder
	out    []File
	errs   []error
	closed bool
}

func (w *walker) work(ctx context.Context) {
	buf := make([]byte, 32<<10)
	var out []File
	defer func() {
		w.mu.Lock()
		w.out = append(w.out, out...)
		w.mu.Unlock()
	}()
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.busy > 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.stack) == 0 || w.closed {
			w.closed = true
			w.cond.Broadcast()
			w.mu.Unlock()
			return
		}
		dir := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.busy++
		w.mu.Unlock()

		var subdirs []string
		var err error
		out, subdirs, err = w.readDir(dir, buf, out)

		w.mu.Lock()
		w.busy--
		if err != nil {
			w.errs = append(w.errs, err)
		}
		if ctx.Err() != nil {
			w.closed = true
		}
		w.stack = append(w.stack, subdirs...)
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

// readDir appends the files in dir to files and returns its subfolders.
func (w *walker) readDir(dir string, buf []byte, files []File) (_ []File, subdirs []string, err error) {
	name := filepath.Join(w.dir, filepath.FromSlash(dir))
	// O_NOFOLLOW: a folder swapped for a link since it was listed is not
	// walked into (ELOOP, or ENOTDIR with O_DIRECTORY: skipped as gone).
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
			return files, nil, nil
		}
		return files, nil, fmt.Errorf("read folder %s: %w", name, err)
	}
	defer unix.Close(fd)
	var names []string
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err != nil {
			return files, nil, fmt.Errorf("read folder %s: %w", name, err)
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	for _, base := range names {
		if safefile.IsTemp(base) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue
			}
			return files, nil, fmt.Errorf("stat %s: %w", filepath.Join(name, base), err)
		}
		p := base
		if dir != "" {
			p = dir + "/" + base
		}
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			// Ignored folders are walked all the same: a file committed
			// before its folder was ignored stays tracked, as in git.
			if dir == "" && w.skip[base] {
				continue
			}
			subdirs = append(subdirs, p)
			continue
		}
		if mode, ok := GitMode(uint32(st.Mode)); ok {
			files = append(files, File{p, mode, statcache.StatOf(&st)})
		}
	}
	return files, subdirs, nil
}

// GitMode is the git mode of a file of stat mode m: 100755 or 100644 for
// a regular file, 120000 for a symbolic link; ok is false for any other.
func GitMode(m uint32) (mode uint32, ok bool) {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		if m&0o111 != 0 {
			return 0o100755, true
		}
		return 0o100644, true
	case unix.S_IFLNK:
		return 0o120000, true
	}
	return 0, false
}
