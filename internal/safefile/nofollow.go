package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrLink means a path in the memory is, or goes through, a symbolic
// link. cairn never follows one there: a link to /proc/self/environ or
// to /etc would put what it points at into listings, packs, shares and
// commits.
var ErrLink = errors.New("is a symbolic link")

// LinkError names the link a path goes through.
type LinkError struct {
	Path string // slash-separated, relative to the root it was opened under
}

func (e *LinkError) Error() string {
	return e.Path + " is a symbolic link; cairn does not follow links in its memory (remove the link)"
}

// Is makes errors.Is(err, ErrLink) true.
func (e *LinkError) Is(target error) bool { return target == ErrLink }

// OpenInRoot opens the regular file rel (slash-separated, relative to
// root) for reading without following a symbolic link at any component
// below root: each folder is opened with O_NOFOLLOW from the one before,
// and the file with O_NOFOLLOW too, so a link swapped in meanwhile is
// refused as well. A link anywhere gives a *LinkError naming it; a
// missing file an error matching fs.ErrNotExist; anything but a regular
// file (a FIFO, a device, a folder) an error saying so. root itself may
// be a link: it is where the user keeps the memory.
func OpenInRoot(root, rel string) (*os.File, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	dirfd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	// Where the kernel can refuse every link below root itself
	// (openat2), one call does what the walk does; any failure takes the
	// walk, which says what failed as it always has.
	if fd, err := openBeneath(dirfd, rel, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK); err == nil {
		unix.Close(dirfd)
		dirfd, parts = fd, nil
	}
	for i, part := range parts {
		last := i == len(parts)-1
		flags := unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW
		if last {
			flags |= unix.O_NONBLOCK // a FIFO must not block the open
		} else {
			flags |= unix.O_DIRECTORY
		}
		fd, err := openat(dirfd, part, flags)
		if err != nil {
			// ELOOP (a link as the last component, with O_NOFOLLOW) or
			// ENOTDIR (a link where a folder is wanted): lstat says which.
			var st unix.Stat_t
			if unix.Fstatat(dirfd, part, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = &LinkError{Path: strings.Join(parts[:i+1], "/")}
			} else {
				err = &fs.PathError{Op: "open", Path: filepath.Join(root, filepath.FromSlash(rel)), Err: err}
			}
			unix.Close(dirfd)
			return nil, err
		}
		unix.Close(dirfd)
		dirfd = fd
	}
	f := os.NewFile(uintptr(dirfd), filepath.Join(root, filepath.FromSlash(rel)))
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: f.Name(), Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
	}
	if err == nil {
		// Reads block as usual once it is known to be a file.
		err = unix.SetNonblock(dirfd, false)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadInRoot reads the regular file rel under root as OpenInRoot opens
// it: never through a symbolic link.
func ReadInRoot(root, rel string) ([]byte, error) {
	data, _, err := ReadHeadInRoot(root, rel, math.MaxInt64)
	return data, err
}

// ReadHeadInRoot reads at most n bytes of the regular file rel under
// root as OpenInRoot opens it (never through a symbolic link), and
// returns them with the file's size: fstat's, or what was read if more.
//
// Where the kernel opens beneath a folder in one call (openat2), it
// reads with the descriptor alone, in a buffer of the file's size: an
// *os.File costs three more system calls (fcntl twice, epoll_ctl), and
// io.ReadAll reads a 2 KB file in four, its buffer growing from 512
// bytes (an index build reads every file of the memory: these were a
// tenth of its CPU). Anything else (no openat2, a link, no such file, not
// a regular file, a failed read) takes OpenInRoot's way, which gives the
// errors it always has.
func ReadHeadInRoot(root, rel string, n int64) ([]byte, int64, error) {
	if data, size, ok := readHead(root, rel, n); ok {
		return data, size, nil
	}
	f, err := OpenInRoot(root, rel)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	data, err := io.ReadAll(io.LimitReader(f, n))
	return data, max(fi.Size(), int64(len(data))), err
}

// readHead is ReadHeadInRoot's short way; ok is false when it did not
// read the file.
func readHead(root, rel string, n int64) (data []byte, size int64, ok bool) {
	if _, err := splitRel(rel); err != nil || n <= 0 {
		return nil, 0, false
	}
	dirfd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, 0, false
	}
	// O_NONBLOCK so that a FIFO does not block the open; a regular
	// file's reads ignore it.
	fd, err := openBeneath(dirfd, rel, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK)
	unix.Close(dirfd)
	if err != nil {
		return nil, 0, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, 0, false
	}
	// Room for the whole file and one byte more, so that the read that
	// finds its end needs no larger buffer.
	data = make([]byte, 0, min(max(st.Size, 0), n-1)+1)
	for int64(len(data)) < n {
		if len(data) == cap(data) { // the file grew since fstat
			data = append(data, 0)[:len(data)]
		}
		room := data[len(data):int(min(int64(cap(data)), n))]
		k, err := unix.Read(fd, room)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, 0, false
		}
		if k == 0 {
			break
		}
		data = data[:len(data)+k]
	}
	return data, max(st.Size, int64(len(data))), true
}

// LstatInRoot returns what os.Lstat does for rel under root, but a
// *LinkError when rel or any folder on the way to it is a symbolic link.
func LstatInRoot(root, rel string) (fs.FileInfo, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	name := root
	var fi fs.FileInfo
	for i, part := range parts {
		name = filepath.Join(name, part)
		if fi, err = os.Lstat(name); err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &LinkError{Path: strings.Join(parts[:i+1], "/")}
		}
	}
	return fi, nil
}

// splitRel splits a relative, clean, slash-separated path into its
// components, refusing any that would climb out of the root.
func splitRel(rel string) ([]string, error) {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("%q: not a clean path inside the memory", rel)
	}
	return strings.Split(rel, "/"), nil
}

// openat retries on EINTR, which a signal can cause on slow file systems.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
