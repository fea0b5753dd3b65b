package hooks

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runScript runs the installed capture script the way Claude Code runs a
// hook command: sh -c, the payload on stdin, CLAUDE_PROJECT_DIR set.
func runScript(t *testing.T, script, projectDir, cwd string, stdin []byte, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`)
	if script != "" {
		cmd = exec.Command("sh", "-c", "sh "+ShellQuote(script))
	}
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "CAIRN_DIR=")
	if projectDir != "" {
		cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+projectDir)
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// fakeMemory makes proj/.cairn look like a memory and installs the
// scripts into it.
func fakeMemory(t *testing.T) (proj, mem string) {
	t.Helper()
	proj = t.TempDir()
	mem = filepath.Join(proj, ".cairn")
	if err := os.MkdirAll(filepath.Join(mem, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(filepath.Join(mem, "hooks")); err != nil {
		t.Fatal(err)
	}
	return proj, mem
}

func inbox(t *testing.T, mem string) []string {
	t.Helper()
	es, _ := os.ReadDir(filepath.Join(mem, "inbox"))
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestCaptureScript(t *testing.T) {
	t.Parallel()
	proj, mem := fakeMemory(t)
	payload := []byte(`{"session_id":"s1","hook_event_name":"Stop","last_assistant_message":"done \u00e9"}` + "\n")
	out, errs, code := runScript(t, "", proj, proj, payload)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	names := inbox(t, mem)
	if len(names) != 1 || !strings.HasPrefix(names[0], "hook-") || !strings.HasSuffix(names[0], ".json") {
		t.Fatalf("inbox: %v", names)
	}
	got, _ := os.ReadFile(filepath.Join(mem, "inbox", names[0]))
	if !bytes.Equal(got, payload) {
		t.Errorf("inbox file %q, want %q", got, payload)
	}
	// Names sort in the order the hooks ran.
	for i := 0; i < 5; i++ {
		runScript(t, "", proj, proj, payload)
	}
	names = inbox(t, mem)
	if len(names) != 6 {
		t.Fatalf("inbox: %v", names)
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("names out of order: %v", names)
		}
	}

	// Nothing on stdin: nothing written.
	os.RemoveAll(filepath.Join(mem, "inbox"))
	if _, _, code := runScript(t, "", proj, proj, nil); code != 0 || len(inbox(t, mem)) != 0 {
		t.Errorf("empty stdin: exit %d, inbox %v", code, inbox(t, mem))
	}
	// The inbox is created when it is missing (a fresh clone has none).
	if _, _, code := runScript(t, "", proj, proj, payload); code != 0 || len(inbox(t, mem)) != 1 {
		t.Errorf("no inbox: exit %d, inbox %v", code, inbox(t, mem))
	}
}

// TestCaptureScriptSequenceWraps: a sequence at the top of int64 (a hand
// edit) is seeded from the clock again, not wrapped to a negative name.
func TestCaptureScriptSequenceWraps(t *testing.T) {
	t.Parallel()
	proj, mem := fakeMemory(t)
	state := filepath.Join(mem, ".state")
	os.MkdirAll(state, 0o700)
	os.WriteFile(filepath.Join(state, "hook-seq"), []byte("9223372036854775807\n"), 0o600)
	payload := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse"}` + "\n")
	if _, errs, code := runScript(t, "", proj, proj, payload); code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	names := inbox(t, mem)
	if len(names) != 1 || strings.HasPrefix(names[0], "hook--") || strings.HasPrefix(names[0], "hook-9") {
		t.Errorf("inbox: %v, want one name seeded from the clock", names)
	}
}

// TestCaptureScriptSequence: in a memory with .state/, the names' numbers
// come from .state/hook-seq, one more each time, so that the clock is read
// only to seed it; a sequence file gone bad is seeded again, and the
// payloads and the file stay this user's.
func TestCaptureScriptSequence(t *testing.T) {
	t.Parallel()
	proj, mem := fakeMemory(t)
	state := filepath.Join(mem, ".state")
	os.MkdirAll(state, 0o700)
	payload := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse"}` + "\n")
	for i := 0; i < 4; i++ {
		if i == 2 {
			os.WriteFile(filepath.Join(state, "hook-seq"), []byte("12\n"), 0o600) // not 19 digits
		}
		if out, errs, code := runScript(t, "", proj, proj, payload); code != 0 || out != "" || errs != "" {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i, code, out, errs)
		}
	}
	names := inbox(t, mem)
	if len(names) != 4 {
		t.Fatalf("inbox: %v", names)
	}
	var ns []string
	for _, name := range names {
		n, _, _ := strings.Cut(strings.TrimPrefix(name, "hook-"), "-")
		ns = append(ns, n)
		if fi, err := os.Stat(filepath.Join(mem, "inbox", name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want mode 0600", name, fi.Mode(), err)
		}
	}
	if len(ns[0]) != 19 || len(ns[2]) != 19 || ns[1] <= ns[0] || ns[3] <= ns[2] || ns[2] <= ns[1] {
		t.Errorf("numbers %v: want 19 digits, increasing", ns)
	}
	next := func(a, b string) bool {
		x, errx := strconv.ParseUint(a, 10, 64)
		y, erry := strconv.ParseUint(b, 10, 64)
		return errx == nil && erry == nil && y == x+1
	}
	if !next(ns[0], ns[1]) || !next(ns[2], ns[3]) {
		t.Errorf("numbers %v: want one more each run after a seed", ns)
	}
	got, _ := os.ReadFile(filepath.Join(state, "hook-seq"))
	if string(got) != ns[3]+"\n" {
		t.Errorf("hook-seq %q, want %q", got, ns[3]+"\n")
	}
	if fi, err := os.Stat(filepath.Join(state, "hook-seq")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("hook-seq: %v %v, want mode 0600", fi.Mode(), err)
	}
}

// TestCaptureScriptProcesses: on the common path the script starts one
// process (cat) and no other program; counted with strace, when it is
// installed.
func TestCaptureScriptProcesses(t *testing.T) {
	t.Parallel()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	proj, mem := fakeMemory(t)
	os.MkdirAll(filepath.Join(mem, ".state"), 0o700)
	script := filepath.Join(mem, "hooks", CaptureScript)
	runScript(t, script, proj, proj, []byte(`{}`)) // seeds .state/hook-seq
	log := filepath.Join(t.TempDir(), "strace")
	cmd := exec.Command(strace, "-f", "-qq", "-e", "trace=process", "-o", log, "sh", script)
	cmd.Env = append(os.Environ(), "CAIRN_DIR="+mem)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v %s", err, out)
	}
	data, _ := os.ReadFile(log)
	var forks, execs []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.Contains(line, "execve(") && !strings.Contains(line, "= -1"):
			execs = append(execs, line)
		case strings.Contains(line, "fork(") || strings.Contains(line, "clone(") || strings.Contains(line, "clone3("):
			forks = append(forks, line)
		}
	}
	if len(forks) != 1 || len(execs) != 2 {
		t.Errorf("%d process starts, %d programs; want 1 (cat) and 2 (sh, cat):\n%s", len(forks), len(execs), data)
	}
	if len(inbox(t, mem)) != 2 {
		t.Errorf("inbox: %v", inbox(t, mem))
	}
}

func TestCaptureScriptFindsMemory(t *testing.T) {
	t.Parallel()
	proj, mem := fakeMemory(t)
	script := filepath.Join(mem, "hooks", CaptureScript)
	sub := filepath.Join(proj, "a", "b")
	os.MkdirAll(sub, 0o755)
	for _, tc := range []struct {
		name, projectDir, cwd string
		env                   []string
	}{
		{"project dir", proj, t.TempDir(), nil},
		{"below the project dir", sub, t.TempDir(), nil},
		{"cwd without CLAUDE_PROJECT_DIR", "", sub, nil},
		{"CAIRN_DIR the memory", "/nonexistent", t.TempDir(), []string{"CAIRN_DIR=" + mem}},
		{"CAIRN_DIR the project", "/nonexistent", t.TempDir(), []string{"CAIRN_DIR=" + proj}},
	} {
		before := len(inbox(t, mem))
		_, errs, code := runScript(t, script, tc.projectDir, tc.cwd, []byte(`{"hook_event_name":"Stop"}`), tc.env...)
		if code != 0 || errs != "" || len(inbox(t, mem)) != before+1 {
			t.Errorf("%s: exit %d, stderr %q, inbox %d -> %d", tc.name, code, errs, before, len(inbox(t, mem)))
		}
	}
	// No memory anywhere: exit 0, silently, nothing written.
	for _, pd := range []string{t.TempDir(), "relative/dir", "/"} {
		_, errs, code := runScript(t, script, pd, t.TempDir(), []byte(`{}`))
		if code != 0 || errs != "" {
			t.Errorf("no memory (%s): exit %d, stderr %q", pd, code, errs)
		}
	}
}

func TestCaptureScriptCannotWrite(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		// root writes through permissions; the full-disk test in
		// cmd/cairn covers a failing write.
		t.Skip("runs as root")
	}
	proj, mem := fakeMemory(t)
	os.MkdirAll(filepath.Join(mem, "inbox"), 0o500)
	_, errs, code := runScript(t, "", proj, proj, []byte(`{}`))
	if code != 0 || !strings.Contains(errs, "not captured") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestInstall(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hooks")
	w, err := Install(dir)
	if err != nil || len(w) != len(Scripts()) {
		t.Fatal(w, err)
	}
	fi, err := os.Stat(filepath.Join(dir, CaptureScript))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("%v %v", fi, err)
	}
	if w, err := Install(dir); err != nil || len(w) != 0 {
		t.Errorf("second install wrote %v (%v)", w, err)
	}
	os.WriteFile(filepath.Join(dir, CaptureScript), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	if w, _ := Install(dir); len(w) != 1 {
		t.Errorf("a changed script was not replaced: %v", w)
	}
}

// BenchmarkCaptureScript measures the capture hook as Claude Code runs
// it (sh -c running the script), against the floor of any hook command
// (sh -c true) and of one that reads its stdin (cat >/dev/null).
func BenchmarkCaptureScript(b *testing.B) {
	proj := b.TempDir()
	mem := filepath.Join(proj, ".cairn")
	os.MkdirAll(filepath.Join(mem, ".git"), 0o755)
	Install(filepath.Join(mem, "hooks"))
	payload, _ := os.ReadFile("../testdata/hooks/post-tool-use-bash.json")
	for _, bc := range []struct{ name, cmd string }{
		{"baseline-true", "true"},
		{"baseline-cat", "cat >/dev/null"},
		{"capture", `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command("sh", "-c", bc.cmd)
				cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj)
				cmd.Stdin = bytes.NewReader(payload)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			os.RemoveAll(filepath.Join(mem, "inbox"))
			b.StartTimer()
		})
	}
}

func TestShellcheck(t *testing.T) {
	t.Parallel()
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	for _, name := range Scripts() {
		if out, err := exec.Command(sc, "-s", "sh", name).CombinedOutput(); err != nil {
			t.Errorf("shellcheck %s: %v\n%s", name, err, out)
		}
	}
}
