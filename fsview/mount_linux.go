package fsview

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// ErrNoFUSE is wrapped by the errors that say FUSE cannot be used here.
var ErrNoFUSE = errors.New("FUSE is not available")

const installText = "install FUSE: apt-get install fuse3 (Debian, Ubuntu), dnf install fuse3 (Fedora); in a container, pass --device /dev/fuse --cap-add SYS_ADMIN"

// Available reports whether this process can mount a FUSE file system:
// /dev/fuse opens, and the process is root (which mounts directly) or
// finds fusermount3 or fusermount.
func Available() error {
	f, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%w: open /dev/fuse: %v; %s", ErrNoFUSE, err, installText)
	}
	f.Close()
	if os.Geteuid() == 0 {
		return nil
	}
	if fusermount() == "" {
		return fmt.Errorf("%w: no fusermount3 in PATH to mount as a user; %s", ErrNoFUSE, installText)
	}
	return nil
}

func fusermount() string {
	for _, name := range []string{"fusermount3", "fusermount"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func installHint(err error) string {
	if errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), "fusermount") {
		return "; " + installText
	}
	return ""
}

// Mountpoint is a mount as /proc/self/mountinfo lists it.
type Mountpoint struct {
	Dev    string // major:minor; the minor numbers FUSE connections
	Dir    string
	FSType string // fuse.cairn for a cairn view
	Source string
}

// Mounts lists the mounts of this process's mount name space.
func Mounts() ([]Mountpoint, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("list mounts: %w", err)
	}
	defer f.Close()
	var out []Mountpoint
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, rest := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(rest) < 2 {
			continue
		}
		out = append(out, Mountpoint{Dev: fields[2], Dir: unescape(fields[4]), FSType: rest[0], Source: unescape(rest[1])})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("list mounts: %w", err)
	}
	return out, nil
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and
// backslash.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// MountedAt returns the mount whose mount point is dir, if any.
func MountedAt(dir string) (*Mountpoint, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ms, err := Mounts()
	if err != nil {
		return nil, err
	}
	var found *Mountpoint
	for i := range ms {
		if ms[i].Dir == abs {
			found = &ms[i] // the last one is on top
		}
	}
	return found, nil
}

// Stale reports whether dir is a FUSE mount whose server is gone: the
// process that served it was killed.
//
// A server killed while one of its own threads waited on the mount (go-fuse
// looks at the new mount once) cannot finish dying: the thread waits for
// an answer only the dead server could give. Such a mount answers nothing;
// after staleWait it counts as stale too, and Unmount aborts its
// connection.
func Stale(dir string) bool {
	// statfs always reaches the server; a stat may be answered from the
	// kernel's cache.
	done := make(chan error, 1)
	go func() {
		var st unix.Statfs_t
		done <- unix.Statfs(dir, &st)
	}()
	select {
	case err := <-done:
		return errors.Is(err, unix.ENOTCONN)
	case <-time.After(staleWait):
		return true
	}
}

const staleWait = 3 * time.Second

// abort ends the FUSE connection of a mount through the fusectl file
// system, which releases every process waiting on it.
func abort(mp *Mountpoint) {
	_, minor, ok := strings.Cut(mp.Dev, ":")
	if !ok {
		return
	}
	const ctl = "/sys/fs/fuse/connections"
	name := filepath.Join(ctl, minor, "abort")
	if _, err := os.Stat(name); err != nil && os.Geteuid() == 0 {
		unix.Mount("fusectl", ctl, "fusectl", 0, "")
	}
	os.WriteFile(name, []byte("1"), 0)
}

// Unmount unmounts the cairn view mounted at dir, by this or another
// process, or left behind by a process that was killed. When programs
// still use it, it is detached: gone from the name space at once, and
// released when they let go.
func Unmount(dir string) error {
	mp, err := MountedAt(dir)
	if err != nil {
		return err
	}
	if mp == nil {
		return fmt.Errorf("unmount %s: %w", dir, ErrNotMounted)
	}
	if mp.FSType != "fuse.cairn" {
		return fmt.Errorf("unmount %s: it is a %s mount, not a cairn view", dir, mp.FSType)
	}
	if Stale(dir) {
		abort(mp)
	}
	return detach(dir)
}

// ErrNotMounted says a folder is not a mount point.
var ErrNotMounted = errors.New("not mounted")

// detach unmounts dir, lazily when it is busy.
func detach(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		err := unix.Unmount(abs, 0)
		if errors.Is(err, unix.EBUSY) {
			err = unix.Unmount(abs, unix.MNT_DETACH)
		}
		if err == nil || errors.Is(err, unix.EINVAL) && !isMounted(abs) {
			return nil
		}
		if fusermount() == "" {
			return fmt.Errorf("unmount %s: %w", dir, err)
		}
	}
	fm := fusermount()
	if fm == "" {
		return fmt.Errorf("unmount %s: %w: no fusermount3 in PATH; %s", dir, ErrNoFUSE, installText)
	}
	out, err := exec.Command(fm, "-u", "-z", abs).CombinedOutput()
	if err != nil {
		return fmt.Errorf("unmount %s: %s: %w", dir, strings.TrimSpace(string(out)), err)
	}
	return nil
}

func isMounted(dir string) bool {
	mp, err := MountedAt(dir)
	return err == nil && mp != nil
}

// checkMountPoint makes sure dir can take the view: an existing empty
// folder that is not a mount, after cleaning up a stale cairn mount.
func checkMountPoint(dir string) error {
	mp, err := MountedAt(dir)
	if err != nil {
		return err
	}
	if mp != nil {
		if mp.FSType != "fuse.cairn" {
			return fmt.Errorf("mount point %s is already a %s mount", dir, mp.FSType)
		}
		if !Stale(dir) {
			return fmt.Errorf("mount point %s: a cairn view is already mounted there (cairn umount %s)", dir, dir)
		}
		abort(mp)
		if err := detach(dir); err != nil {
			return fmt.Errorf("mount point %s: clean up the stale mount of a killed process: %w", dir, err)
		}
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("mount point %s does not exist: create an empty folder first", dir)
	}
	if err != nil {
		return fmt.Errorf("mount point %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("mount point %s is not a folder", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("mount point %s: %w", dir, err)
	}
	defer f.Close()
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fmt.Errorf("mount point %s is not empty (it holds %s)", dir, names[0])
	}
	return nil
}
