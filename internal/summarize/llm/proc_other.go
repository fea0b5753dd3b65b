//go:build !unix

package llm

import "os/exec"

// killGroup: elsewhere, killing the process is all CommandContext does.
func killGroup(cmd *exec.Cmd) {}
