package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func claudeProject(t *testing.T) Claude {
	t.Helper()
	project := t.TempDir()
	return Claude{Project: project, MemoryDir: filepath.Join(project, ".cairn"), Self: "/usr/local/bin/cairn"}
}

// TestClaudeBackupsExcluded: the FILE.cairn-backup copies init --claude
// makes inside the project do not show in its git status (issue 12, item
// 20): they go into .git/info/exclude, as .cairn/ does.
func TestClaudeBackupsExcluded(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	c := claudeProject(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-C", c.Project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+c.Project)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	if err := os.MkdirAll(filepath.Join(c.Project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{".claude/settings.json": `{"model": "opus"}`, ".mcp.json": `{"mcpServers": {}}`} {
		if err := os.WriteFile(filepath.Join(c.Project, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("add", ".")
	run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "settings")
	res, err := c.Install()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(res.Settings.File) != "settings.json" || filepath.Base(res.MCP.File) != ".mcp.json" {
		t.Errorf("edited %s and %s", res.Settings.File, res.MCP.File)
	}
	if res.Settings.Backup == "" || res.MCP.Backup == "" {
		t.Fatalf("no backups: %+v %+v", res.Settings, res.MCP)
	}
	status := run("status", "--porcelain", "--untracked-files=all")
	if strings.Contains(status, BackupSuffix) {
		t.Errorf("git status shows the backups:\n%s", status)
	}
	// Twice changes nothing, and the line is there once.
	if _, err := c.Install(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(c.Project, ".git", "info", "exclude"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "*"+BackupSuffix+"\n"); n != 1 {
		t.Errorf(".git/info/exclude has the line %d times:\n%s", n, b)
	}
	if status := run("status", "--porcelain", "--untracked-files=all"); strings.Contains(status, BackupSuffix) {
		t.Errorf("after --remove, git status shows the backups:\n%s", status)
	}
}

// TestClaudeRemoveLeavesNoEmptyDir: --remove takes away the .claude/ that
// init --claude created, and leaves one that holds anything else.
func TestClaudeRemoveLeavesNoEmptyDir(t *testing.T) {
	c := claudeProject(t)
	if _, err := c.Install(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(c.Project, ".claude")
	if _, err := os.Stat(filepath.Join(dir, "settings.json")); err != nil {
		t.Fatal(err)
	}
	res, err := c.Remove()
	if err != nil {
		t.Fatal(err)
	}
	if !res.Settings.Changed || !res.MCP.Changed {
		t.Errorf("remove changed nothing: %+v %+v", res.Settings, res.MCP)
	}
	for _, name := range []string{dir, filepath.Join(c.Project, ".mcp.json")} {
		if _, err := os.Lstat(name); !os.IsNotExist(err) {
			t.Errorf("%s is still there after --remove (%v)", name, err)
		}
	}

	// A .claude/ with the user's files in it stays.
	if _, err := c.Install(); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "settings.local.json")
	if err := os.WriteFile(keep, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the user's file went: %v", err)
	}
}
