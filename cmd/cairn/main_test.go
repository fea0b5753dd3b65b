package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/ui"
)

// binary is the cairn command built once for the tests that need whole
// processes (concurrency, crashes).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cairn-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cairn")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	// One isolated environment for every test, set before any runs: an
	// empty home (no settings of the user's), git's identity, and none of
	// cairn's variables. Tests that need more pass it to run (see env)
	// instead of calling t.Setenv, so they can run in parallel. HOME
	// changes after the build above, which uses the user's build cache.
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		panic(err)
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Dev",
		"GIT_AUTHOR_EMAIL":    "dev@example.com",
		"GIT_COMMITTER_NAME":  "Dev",
		"GIT_COMMITTER_EMAIL": "dev@example.com",
	} {
		os.Setenv(k, v)
	}
	for _, k := range []string{"CAIRN_DIR", "CAIRN_SESSION", "CAIRN_AUTHOR_NAME", "CAIRN_AUTHOR_EMAIL",
		"CAIRN_GIT_TOKEN", "CAIRN_LOCK_TIMEOUT", "CAIRN_USER_DIR", "CLAUDE_PROJECT_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "VISUAL", "EDITOR"} {
		os.Unsetenv(k)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is what a test adds to the process's environment for the commands
// it runs in-process: run reads the environment only through it.
type env map[string]string

func (e env) getenv(name string) string {
	if v, ok := e[name]; ok {
		return v
	}
	return os.Getenv(name)
}

// testProcess is the process a test's command line runs in: the test's
// streams and environment, and the package's folder as the working
// directory (tests pass -C).
func testProcess(e env, stdin io.Reader, stdout, stderr io.Writer) process {
	return process{getwd: os.Getwd, getenv: e.getenv, stdin: stdin, stdout: stdout, stderr: stderr}
}

type result struct {
	code           int
	stdout, stderr string
}

// cairn runs one command line in-process in dir.
func cairn(t *testing.T, dir string, stdin string, args ...string) result {
	t.Helper()
	return cairnEnv(t, nil, dir, stdin, args...)
}

// cairnEnv runs one command line in-process in dir, with e added to the
// environment.
func cairnEnv(t *testing.T, e env, dir string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), testProcess(e, strings.NewReader(stdin), &out, &errb), append([]string{"-C", dir}, args...))
	return result{code, out.String(), errb.String()}
}

// ok runs a command that must succeed and returns its output.
func ok(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return okEnv(t, nil, dir, args...)
}

// okEnv is ok with e added to the environment.
func okEnv(t *testing.T, e env, dir string, args ...string) string {
	t.Helper()
	r := cairnEnv(t, e, dir, "", args...)
	if r.code != 0 {
		t.Fatalf("cairn %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// fails runs a command that must fail with code, with one line on stderr
// containing want.
func fails(t *testing.T, dir string, code int, want string, args ...string) {
	t.Helper()
	failsEnv(t, nil, dir, code, want, args...)
}

// failsEnv is fails with e added to the environment.
func failsEnv(t *testing.T, e env, dir string, code int, want string, args ...string) {
	t.Helper()
	r := cairnEnv(t, e, dir, "", args...)
	if r.code != code {
		t.Fatalf("cairn %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
	first, _, _ := strings.Cut(r.stderr, "\n")
	if !strings.Contains(first, want) {
		t.Errorf("cairn %s: stderr %q, want it to contain %q", strings.Join(args, " "), r.stderr, want)
	}
}

func gitc(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// project makes a project folder that is a git repository with a commit.
// The environment for cairn and git is TestMain's.
func project(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(dir, 0o755)
	gitc(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	gitc(t, dir, "add", ".")
	gitc(t, dir, "commit", "-qm", "code")
	return dir
}

// checkGit asserts what a git user expects in .cairn after any command.
func checkGit(t *testing.T, proj string) {
	t.Helper()
	mem := filepath.Join(proj, ".cairn")
	gitc(t, mem, "fsck", "--full", "--strict", "--no-dangling")
	if st := gitc(t, mem, "status", "--porcelain"); st != "" {
		t.Errorf("git status in .cairn not clean:\n%s", st)
	}
	if d := gitc(t, mem, "diff", "--cached", "--name-only"); d != "" {
		t.Errorf("git index differs from HEAD:\n%s", d)
	}
}

// checkGitQuiet is checkGit once the memory's repository is quiet: a
// daemon the session start launched may still be committing what that
// start captured (under load it was, and git status caught its index
// half written), or be about to write the new session's folder (a quiet
// moment came before it, and git status then saw the folder untracked).
// It waits for the work tree and index to match HEAD for a whole second,
// 15 s at most, then checks as checkGit does.
func checkGitQuiet(t *testing.T, proj string) {
	t.Helper()
	mem := filepath.Join(proj, ".cairn")
	var since time.Time
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if gitc(t, mem, "status", "--porcelain") != "" || gitc(t, mem, "diff", "--cached", "--name-only") != "" {
			since = time.Time{}
			continue
		}
		if since.IsZero() {
			since = time.Now()
		}
		if time.Since(since) >= time.Second {
			break
		}
	}
	checkGit(t, proj)
}

func TestInit(t *testing.T) {
	t.Parallel()
	p := project(t)
	out := ok(t, p, "init")
	if !strings.Contains(out, "Initialised cairn memory") {
		t.Errorf("init said %q", out)
	}
	for _, f := range []string{"README.md", "cairn.yaml", ".gitignore", ".gitattributes"} {
		if _, err := os.Stat(filepath.Join(p, ".cairn", f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	checkGit(t, p)
	if st := gitc(t, p, "status", "--porcelain"); st != "" {
		t.Errorf("project's git sees the memory:\n%s", st)
	}
	exclude, _ := os.ReadFile(filepath.Join(p, ".git", "info", "exclude"))
	head := gitc(t, filepath.Join(p, ".cairn"), "rev-parse", "HEAD")

	out = ok(t, p, "init")
	if !strings.Contains(out, "already initialised") || !strings.Contains(out, "nothing changed") {
		t.Errorf("second init said %q", out)
	}
	exclude2, _ := os.ReadFile(filepath.Join(p, ".git", "info", "exclude"))
	if string(exclude) != string(exclude2) || gitc(t, filepath.Join(p, ".cairn"), "rev-parse", "HEAD") != head {
		t.Error("second init changed something")
	}
	// Found from a subfolder, and through CAIRN_DIR.
	sub := filepath.Join(p, "a", "b")
	os.MkdirAll(sub, 0o755)
	ok(t, sub, "list")
	elsewhere := t.TempDir()
	var o, e bytes.Buffer
	proc := testProcess(env{"CAIRN_DIR": p}, strings.NewReader(""), &o, &e)
	proc.getwd = func() (string, error) { return elsewhere, nil }
	if code := run(context.Background(), proc, []string{"status"}); code != 0 {
		t.Errorf("CAIRN_DIR: exit %d: %s", code, e.String())
	}
}

func TestNotInitialised(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, cmd := range [][]string{{"list"}, {"checkpoint"}, {"log"}, {"remember", "x"}} {
		fails(t, dir, 1, "no cairn memory here or above; run cairn init", cmd...)
	}
}

func TestItems(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	id := strings.TrimSpace(ok(t, p, "remember", "--kind", "decision", "--tag", "db", "--importance", "0.9",
		"Use PostgreSQL for the job queue\n\nIt is already deployed."))
	checkGit(t, p)
	r := cairn(t, p, "We deploy on Fridays only with a second reviewer.", "remember", "--kind", "fact", "-")
	if r.code != 0 {
		t.Fatalf("remember from stdin: %s", r.stderr)
	}
	id2 := strings.TrimSpace(r.stdout)

	show := ok(t, p, "show", id)
	for _, want := range []string{"kind: decision", "title: Use PostgreSQL for the job queue", "importance: 0.9", "It is already deployed.", "schema: 1"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
	if ok(t, p, "show", id[:16]) != show || ok(t, p, "show", strings.ToLower(id[18:])) != show {
		t.Error("show by id prefix or suffix differs")
	}

	var items []ui.Item
	if err := json.Unmarshal([]byte(ok(t, p, "list", "--json")), &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].ID != id2 || items[1].Kind != "decision" || items[1].Layer != "core" {
		t.Errorf("list = %+v", items)
	}
	if !strings.HasPrefix(items[1].Path, "core/decisions/use-postgresql-for-the-job-queue--") {
		t.Errorf("path = %s", items[1].Path)
	}
	if err := json.Unmarshal([]byte(ok(t, p, "list", "--json", "--kind", "fact")), &items); err != nil || len(items) != 1 {
		t.Errorf("list --kind fact = %v, %v", items, err)
	}

	// A file broken by hand is named with its line; the rest still list.
	broken := filepath.Join(p, ".cairn", "core", "facts", "broken.md")
	os.WriteFile(broken, []byte("---\nkind: fact\ntitle: x\nimportance: high\n---\nbody\n"), 0o644)
	r = cairn(t, p, "", "list")
	if r.code != 0 || !strings.Contains(r.stderr, "core/facts/broken.md:4") || strings.Count(r.stdout, "\n") != 2 {
		t.Errorf("list with a broken file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.Remove(broken)

	out := ok(t, p, "forget", id)
	if !strings.Contains(out, "forgot decision") {
		t.Errorf("forget said %q", out)
	}
	fails(t, p, 1, "no such memory item", "show", id)
	checkGit(t, p)
	subjects := gitc(t, filepath.Join(p, ".cairn"), "log", "--format=%s")
	if !strings.Contains(subjects, `forget: decision "Use PostgreSQL for the job queue"`) {
		t.Errorf("log:\n%s", subjects)
	}
}

func TestEdit(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	id := strings.TrimSpace(ok(t, p, "remember", "--kind", "fact", "The API listens on 8080"))
	// An "editor" that appends a line, then one that breaks the file.
	out := okEnv(t, env{"VISUAL": `sh -c 'printf "\nAlso on 8443 with TLS.\n" >> "$1"' sh`}, p, "edit", id)
	if !strings.Contains(out, "saved core/facts/") {
		t.Errorf("edit said %q", out)
	}
	if show := ok(t, p, "show", id); !strings.Contains(show, "Also on 8443 with TLS.") {
		t.Errorf("edit lost:\n%s", show)
	}
	checkGit(t, p)
	failsEnv(t, env{"VISUAL": `sed -i "s/^importance: .*/importance: [oops/"`}, p, 1, "core/facts/", "edit", id)
	name, _ := filepath.Glob(filepath.Join(p, ".cairn", "core", "facts", "*.md"))
	b, _ := os.ReadFile(name[0])
	if !strings.Contains(string(b), "importance: [oops") {
		t.Error("the broken edit was not kept for the user to fix")
	}
}

// TestCheckpointMessageRedacted: a checkpoint's message goes into git,
// which is pushed: a secret in it is redacted as in any file.
func TestCheckpointMessageRedacted(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	os.MkdirAll(filepath.Join(p, ".cairn", "core"), 0o700)
	os.WriteFile(filepath.Join(p, ".cairn", "core", "notes.md"), []byte("loose note\n"), 0o644)
	secret := "ghp_1234567890abcdefghijABCDEFGHIJ999999"
	ok(t, p, "checkpoint", "-m", "rotated the token "+secret)
	log := gitc(t, filepath.Join(p, ".cairn"), "log", "-1", "--format=%B")
	if strings.Contains(log, secret) || !strings.Contains(log, "REDACTED") {
		t.Errorf("commit message:\n%s", log)
	}
}

// TestCheckpointRedactsHandEdits: a secret pasted into a memory file by
// hand is redacted in the file before the checkpoint commits it, and
// the file and the commit agree (git status is clean).
func TestCheckpointRedactsHandEdits(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	os.MkdirAll(filepath.Join(mem, "core", "notes"), 0o700)
	note := filepath.Join(mem, "core", "notes", "hand.md")
	os.WriteFile(note, []byte("hand note AKIAIOSFODNN7EXAMPLQ password=HandEd1tS3cret99\n"), 0o600)
	r := cairn(t, p, "", "checkpoint")
	if r.code != 0 || !strings.Contains(r.stderr, "core/notes/hand.md: redacted 2 secret(s)") {
		t.Fatalf("checkpoint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(note); strings.Contains(string(b), "HandEd1t") || !strings.Contains(string(b), "hand note [REDACTED:") {
		t.Errorf("the file holds %q", b)
	}
	if log := gitc(t, mem, "log", "-p"); strings.Contains(log, "HandEd1t") || strings.Contains(log, "AKIAIOSFODNN7EXAMPLQ") {
		t.Errorf("a secret is in the history:\n%s", log)
	}
	if st := gitc(t, mem, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the checkpoint:\n%s", st)
	}
	if out := ok(t, p, "checkpoint"); out != "nothing to checkpoint\n" {
		t.Errorf("second checkpoint said %q", out)
	}
	checkGit(t, p)
}

func TestCheckpointLogDiffRestore(t *testing.T) {
	t.Parallel()
	p := project(t)
	mem := filepath.Join(p, ".cairn")
	ok(t, p, "init")
	ok(t, p, "remember", "--kind", "fact", "first fact")
	if out := ok(t, p, "checkpoint"); out != "nothing to checkpoint\n" {
		t.Errorf("clean checkpoint said %q", out)
	}
	codeA := strings.TrimSpace(gitc(t, p, "rev-parse", "HEAD"))
	ok(t, p, "tag", "before-edit")

	// Hand edits, by a person and by another tool.
	os.WriteFile(filepath.Join(mem, "core", "notes.md"), []byte("loose note\n"), 0o644)
	facts, _ := filepath.Glob(filepath.Join(mem, "core", "facts", "*.md"))
	b, _ := os.ReadFile(facts[0])
	os.WriteFile(facts[0], append(b, "edited by hand\n"...), 0o644)
	st := ok(t, p, "status")
	if !strings.Contains(st, "added     core/notes.md") || !strings.Contains(st, "modified  core/facts/") {
		t.Errorf("status:\n%s", st)
	}
	if d := ok(t, p, "diff"); !strings.Contains(d, "+edited by hand") {
		t.Errorf("work-tree diff:\n%s", d)
	}
	// The code moves on, then a checkpoint records where it is.
	os.WriteFile(filepath.Join(p, "main.go"), []byte("package main\n// v2\n"), 0o644)
	gitc(t, p, "commit", "-qam", "code v2")
	codeB := strings.TrimSpace(gitc(t, p, "rev-parse", "HEAD"))
	hash := strings.TrimSpace(ok(t, p, "checkpoint", "-m", "hand edits", "--session", "s-1", "--tag", "edited"))
	checkGit(t, p)
	msg := gitc(t, mem, "log", "-1", "--format=%B")
	for _, want := range []string{"hand edits\n", "Cairn-Session: s-1", "Cairn-Event: checkpoint", "Cairn-Code-Commit: " + codeB, "Cairn-Schema: 1"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}

	var log []struct {
		Commit       string `json:"commit"`
		Time         string `json:"time"`
		Subject      string `json:"subject"`
		Session      string `json:"session"`
		Event        string `json:"event"`
		CodeCommit   string `json:"code_commit"`
		FilesChanged int    `json:"files_changed"`
	}
	if err := json.Unmarshal([]byte(ok(t, p, "log", "--json", "-n", "1")), &log); err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].Commit != hash || log[0].Session != "s-1" || log[0].FilesChanged != 2 || log[0].CodeCommit != codeB || log[0].Time == "" {
		t.Errorf("log = %+v", log)
	}
	if out := ok(t, p, "log", "--session", "s-1"); strings.Count(out, "hand edits") != 1 || strings.Contains(out, "remember:") {
		t.Errorf("log --session:\n%s", out)
	}
	if stat := ok(t, p, "diff", "before-edit", "edited", "--stat"); !strings.Contains(stat, "2 files changed") {
		t.Errorf("diff --stat:\n%s", stat)
	}
	if d := ok(t, p, "diff", "before-edit", "HEAD", "--", "core/notes.md"); !strings.Contains(d, "+loose note") || strings.Contains(d, "facts") {
		t.Errorf("diff -- path:\n%s", d)
	}

	// Restore the memory as it was when the code was at codeA.
	out := ok(t, p, "restore", "--code-commit", codeA[:8])
	if !strings.Contains(out, "restored 2 file(s)") {
		t.Errorf("restore said %q", out)
	}
	checkGit(t, p)
	if _, err := os.Stat(filepath.Join(mem, "core", "notes.md")); !os.IsNotExist(err) {
		t.Error("restore kept a file that did not exist then")
	}
	if n := strings.TrimSpace(gitc(t, mem, "rev-list", "--count", "HEAD")); n != "4" {
		t.Errorf("%s commits after restore; history must only grow", n)
	}
	// And one file back from the tag.
	ok(t, p, "restore", "edited", "--", filepath.Join(mem, "core", "notes.md"))
	if b, _ := os.ReadFile(filepath.Join(mem, "core", "notes.md")); string(b) != "loose note\n" {
		t.Errorf("notes.md = %q", b)
	}
	checkGit(t, p)
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	id := strings.TrimSpace(ok(t, p, "remember", "a fact"))
	tests := []struct {
		code int
		want string
		args []string
	}{
		{2, "unknown flag", []string{"list", "--nope"}},
		{2, "unknown command", []string{"frobnicate"}},
		{2, "unknown kind", []string{"remember", "--kind", "opinion", "x"}},
		{2, "takes 1 argument", []string{"show"}},
		{2, "invalid tag name", []string{"checkpoint", "--tag", "../x"}},
		{2, "restore needs one REV", []string{"restore"}},
		{1, "no such memory item", []string{"show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}},
		{1, "no such memory item", []string{"forget", "abc"}},
		{1, "unknown revision", []string{"diff", "deadbeef"}},
		{1, "unknown revision", []string{"restore", "no-such-tag"}},
		{1, "outside the memory repository", []string{"show", "../../etc/passwd"}},
		{1, "outside the memory repository", []string{"diff", "--", "/etc/passwd"}},
		{1, "outside the memory repository", []string{"restore", "HEAD", "--", "../main.go"}},
		{1, "tag exists", []string{"checkpoint", "--tag", "t1", "-m", "x"}}, // second use below
	}
	ok(t, p, "tag", "t1")
	for _, tt := range tests {
		fails(t, p, tt.code, tt.want, tt.args...)
	}
	if ok(t, p, "show", id) == "" {
		t.Error("the item was lost")
	}
	checkGit(t, p)
}

func TestCorruptState(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	ok(t, p, "remember", "one")
	state := filepath.Join(p, ".cairn", ".state")
	os.WriteFile(filepath.Join(state, "statcache"), []byte("DIRC garbage"), 0o600)
	os.WriteFile(filepath.Join(p, ".cairn", "core", "x.md"), []byte("x\n"), 0o644)
	r := cairn(t, p, "", "checkpoint")
	if r.code != 0 || !strings.Contains(r.stderr, "rebuilding") {
		t.Errorf("checkpoint with a corrupt cache: exit %d: %s", r.code, r.stderr)
	}
	checkGit(t, p)
	// The whole state folder gone: rebuilt too.
	os.RemoveAll(state)
	ok(t, p, "remember", "two")
	checkGit(t, p)
	// A corrupt cairn.yaml: a warning naming the file, defaults used.
	os.WriteFile(filepath.Join(p, ".cairn", "cairn.yaml"), []byte("lock_timeout: [\n"), 0o644)
	r = cairn(t, p, "", "list")
	if r.code != 0 || !strings.Contains(r.stderr, "cairn.yaml") {
		t.Errorf("list with a corrupt config: exit %d: %s", r.code, r.stderr)
	}
}

func TestLockHeld(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("flock(1) is Linux-only")
	}
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not installed")
	}
	p := project(t)
	ok(t, p, "init")
	lock := filepath.Join(p, ".cairn", ".state", "lock")
	holder := exec.Command("flock", lock, "sleep", "5")
	holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { syscall.Kill(-holder.Process.Pid, syscall.SIGKILL); holder.Wait() }
	defer kill()
	// Wait until the holder has the lock.
	for i := 0; i < 100; i++ {
		if exec.Command("flock", "-n", lock, "true").Run() != nil {
			break
		}
		exec.Command("sleep", "0.02").Run()
	}
	failsEnv(t, env{"CAIRN_LOCK_TIMEOUT": "300ms"}, p, 1, "memory is locked by another process", "remember", "blocked")
	kill()
	ok(t, p, "remember", "unblocked")
	checkGit(t, p)
}

// TestWorkingDirectory: -C and the paths a user gives are taken from the
// working directory run is given, as git takes them; the process's own
// is never changed or read.
func TestWorkingDirectory(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	ok(t, p, "remember", "--kind", "fact", "Relative paths are taken from -C")
	var items []ui.Item
	if err := json.Unmarshal([]byte(ok(t, p, "list", "--json")), &items); err != nil || len(items) != 1 {
		t.Fatalf("list: %v %v", items, err)
	}
	in := func(wd string, args ...string) result {
		var out, errb bytes.Buffer
		proc := testProcess(nil, strings.NewReader(""), &out, &errb)
		proc.getwd = func() (string, error) {
			if wd == "" {
				return "", errors.New("no working directory")
			}
			return wd, nil
		}
		return result{run(context.Background(), proc, args), out.String(), errb.String()}
	}
	parent := filepath.Dir(p)
	core := filepath.Join(p, ".cairn", "core")
	inCore, _ := filepath.Rel("core", items[0].Path)
	for _, tc := range []struct {
		wd   string
		args []string
	}{
		{parent, []string{"-C", "proj", "show", filepath.Join(".cairn", items[0].Path)}},
		{parent, []string{"-C", filepath.Base(p), "show", items[0].Path}}, // from the memory's root
		{core, []string{"show", inCore}},
		{"", []string{"-C", core, "show", inCore}}, // an absolute -C needs no working directory
	} {
		if r := in(tc.wd, tc.args...); r.code != 0 || !strings.Contains(r.stdout, "Relative paths are taken from -C") {
			t.Errorf("in %s: cairn %s: exit %d\n%s%s", tc.wd, strings.Join(tc.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	if r := in(parent, "-C", "missing", "list"); r.code != 2 || !strings.Contains(r.stderr, "-C missing: chdir missing: no such file or directory") {
		t.Errorf("-C missing: exit %d: %s", r.code, r.stderr)
	}
	if r := in(p, "-C", "main.go", "list"); r.code != 2 || !strings.Contains(r.stderr, "-C main.go: chdir main.go: not a directory") {
		t.Errorf("-C a file: exit %d: %s", r.code, r.stderr)
	}
	// Through a symbolic link -C names the real folder, as getcwd(3)
	// does after a chdir.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(p)
	if r := in(parent, "-C", link, "init"); r.code != 0 || !strings.Contains(r.stdout, "already initialised in "+filepath.Join(real, ".cairn")) {
		t.Errorf("-C a link: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := in("", "list"); r.code != 1 || !strings.Contains(r.stderr, "no working directory") {
		t.Errorf("without a working directory: exit %d: %s", r.code, r.stderr)
	}
	// A remote's relative path is made absolute from -C's folder.
	if r := in(parent, "-C", "proj", "remote", "add", "origin", "../mem.git"); r.code != 0 {
		t.Fatalf("remote add: exit %d: %s", r.code, r.stderr)
	}
	if out := ok(t, p, "remote", "list"); !strings.Contains(out, filepath.Join(parent, "mem.git")) {
		t.Errorf("remote list: %s", out)
	}
	if wd, err := os.Getwd(); err != nil || filepath.Base(wd) != "cairn" {
		t.Errorf("the process's working directory moved: %s %v", wd, err)
	}
}
