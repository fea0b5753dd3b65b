package gitstoretest

import (
	"os/exec"
	"syscall"
)

func setpgid(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
