package transcript

import (
	"encoding/json"
	"testing"
)

func TestCleanPrompt(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, text, command string }{
		{"  plain words \n", "plain words", ""},
		{"<system-reminder>\nnote\n</system-reminder>\nfix the bug", "fix the bug", ""},
		{"fix <system-reminder>a</system-reminder>this<system-reminder>b</system-reminder> bug", "fix this bug", ""},
		{"before <system-reminder>never closed", "before", ""},
		{"<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>pkg/a</command-args>", "/review pkg/a", "/review"},
		{"<command-name>clear</command-name><command-message>clear</command-message><command-args></command-args>", "/clear", "/clear"},
		{"<local-command-stdout>Set model</local-command-stdout>", "", ""},
		{"<bash-input>git status</bash-input>", "!git status", ""},
		{"<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>", "", ""},
		{"compare a<b and c>d", "compare a<b and c>d", ""},
		{"keep <system-reminders-are-not-this> text", "keep <system-reminders-are-not-this> text", ""},
		{"<ide_selection>lines 1-3</ide_selection>explain this", "explain this", ""},
	}
	for _, tt := range tests {
		text, cmd := cleanPrompt(tt.in)
		if text != tt.text || cmd != tt.command {
			t.Errorf("cleanPrompt(%q) = %q, %q; want %q, %q", tt.in, text, cmd, tt.text, tt.command)
		}
	}
}

func TestCleanOutput(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"ok\n", "ok\n"},
		{"line\n\n<system-reminder>\nmalware?\n</system-reminder>\n", "line"},
		{"<tool_use_error>File has not been read yet.</tool_use_error>", "File has not been read yet."},
	}
	for _, tt := range tests {
		if got := cleanOutput(tt.in); got != tt.want {
			t.Errorf("cleanOutput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		out          string
		isErr, known bool
		want         int // -1: nil
	}{
		{"ok", false, true, 0},
		{"ok", false, false, -1},
		{"Exit code 1\nFAIL", true, true, 1},
		{"Exit code 137", true, false, 137},
		{"Exit code -1", true, true, -1000},
		{"Exit code x", true, true, -1},
		{"<tool_use_error>no</tool_use_error>", true, true, -1},
	}
	for _, tt := range tests {
		got := exitCode(tt.out, tt.isErr, tt.known)
		switch {
		case tt.want == -1 && got != nil:
			t.Errorf("exitCode(%q) = %d, want nil", tt.out, *got)
		case tt.want == -1000 && (got == nil || *got != -1):
			t.Errorf("exitCode(%q) = %v, want -1", tt.out, got)
		case tt.want >= 0 && (got == nil || *got != tt.want):
			t.Errorf("exitCode(%q) = %v, want %d", tt.out, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	cwd := "/home/dev/proj"
	tests := []struct{ name, input, want string }{
		{"Bash", `{"command":"go test ./...","description":"test"}`, "Bash: go test ./..."},
		{"Bash", `{"command":"cd x &&\nmake"}`, "Bash: cd x && …"},
		// A script's later line that edits a file in place is what it did.
		{"Bash", `{"command":"cat > worker/heartbeat.py <<'PY'\nimport boto3\nPY\nsed -i 's/VISIBILITY_TIMEOUT = 900/VISIBILITY_TIMEOUT = 1800/' worker/config.py && grep TIMEOUT worker/config.py"}`, "Bash: cat > worker/heartbeat.py <<'PY' && … && sed -i 's/VISIBILITY_TIMEOUT = 900/VISIBILITY_TIMEOUT = 1800/' worker/config.py"},
		{"Edit", `{"file_path":"/home/dev/proj/internal/a.go","old_string":"x"}`, "Edit: internal/a.go"},
		{"Write", `{"file_path":"/etc/hosts"}`, "Write: /etc/hosts"},
		{"Read", `{"file_path":"/home/dev/project2/a.go"}`, "Read: /home/dev/project2/a.go"},
		{"NotebookEdit", `{"notebook_path":"/home/dev/proj/n.ipynb"}`, "NotebookEdit: n.ipynb"},
		{"Grep", `{"pattern":"TODO","path":"/home/dev/proj/cmd"}`, "Grep: TODO in cmd"},
		{"Glob", `{"pattern":"**/*.go"}`, "Glob: **/*.go"},
		{"WebFetch", `{"url":"https://go.dev/doc","prompt":"summarise"}`, "WebFetch: https://go.dev/doc"},
		{"WebSearch", `{"query":"go 1.26 release notes"}`, "WebSearch: go 1.26 release notes"},
		{"Task", `{"description":"Find callers","prompt":"...","subagent_type":"Explore"}`, "Task: Find callers (Explore)"},
		{"TodoWrite", `{"todos":[{"content":"a"},{"content":"b"}]}`, "TodoWrite: 2 items"},
		{"shell", `{"command":["bash","-lc","make lint"]}`, "shell: make lint"},
		{"shell", `{"command":["rg","-n","TODO"]}`, "shell: rg -n TODO"},
		{"exec_command", `{"cmd":"ls -la"}`, "exec_command: ls -la"},
		{"apply_patch", `"*** Begin Patch\n*** Update File: /home/dev/proj/a.go\n*** Add File: b.go\n*** End Patch"`, "apply_patch: a.go, b.go"},
		{"mcp__cairn__search", `{"query":"queue"}`, "mcp__cairn__search: queue"},
		{"ExitPlanMode", `{}`, "ExitPlanMode"},
		{"Bash", `{"command":42}`, "Bash"},
		{"Bash", `not json`, "Bash"},
		{"Bash", ``, "Bash"},
	}
	for _, tt := range tests {
		if got := summarize(tt.name, json.RawMessage(tt.input), cwd); got != tt.want {
			t.Errorf("summarize(%s, %s) = %q, want %q", tt.name, tt.input, got, tt.want)
		}
	}
	long := `{"command":"` + string(make([]byte, 0)) + "echo " + repeat("x", 300) + `"}`
	if got := summarize("Bash", json.RawMessage(long), ""); len([]rune(got)) > len("Bash: ")+summaryLen+2 {
		t.Errorf("summary of a long command is %d runes long", len([]rune(got)))
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}
