package safefile

import "golang.org/x/sys/unix"

// openBeneath opens rel under the folder dirfd with flags, refusing a
// symbolic link at any component and any way out of the folder
// (openat2 with RESOLVE_NO_SYMLINKS and RESOLVE_BENEATH, Linux 5.6 on).
func openBeneath(dirfd int, rel string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH}
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
