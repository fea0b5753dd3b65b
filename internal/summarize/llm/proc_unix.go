//go:build unix

package llm

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in a process group of its own and kills the whole
// group when its context ends, so that no child of claude outlives it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
