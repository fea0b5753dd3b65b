package doctor

import (
	"os"
	"os/exec"
)

// checkFUSE says whether cairn mount can work here: /dev/fuse, and
// fusermount3 on PATH unless cairn runs as root.
func checkFUSE(r *Report) {
	if _, err := os.Stat("/dev/fuse"); err != nil {
		r.Add("fuse", Warn, "no /dev/fuse: cairn mount cannot work here", "load the fuse module (modprobe fuse), or in a container pass --device /dev/fuse")
		return
	}
	if os.Geteuid() == 0 {
		r.Add("fuse", OK, "/dev/fuse, running as root", "")
		return
	}
	for _, name := range []string{"fusermount3", "fusermount"} {
		if p, err := exec.LookPath(name); err == nil {
			r.Add("fuse", OK, "/dev/fuse and "+p, "")
			return
		}
	}
	r.Add("fuse", Warn, "no fusermount3 on PATH: cairn mount needs it when not run as root", "install fuse3 (apt install fuse3, dnf install fuse3)")
}
