package summarize

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/shellcmd"
)

func TestPurposeAndFamily(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		p      purpose
		family string
	}{
		{"go test -race ./queue/", purposeTest, "go test"},
		{"CGO_ENABLED=0 go build ./cmd/app", purposeBuild, "go build"},
		{"npm run test -- --watch=false", purposeTest, "npm run test"},
		{"python -m pytest -q", purposeTest, "python"},
		{"golangci-lint run ./...", purposeLint, "golangci-lint run"},
		{"git commit -m 'x'", purposeCommit, "git commit"},
		{"git status", purposeLook, "git status"},
		{"ls -la", purposeLook, "ls"},
		{"docker compose up -d", purposeOther, "docker compose"},
		{"rm -f deploy/api.service && grep -rn 'systemctl\\|cargo build --release' .", purposeOther, "rm"},
		{"bash -lc 'cargo build --release'", purposeBuild, "bash"},
	} {
		if p := purposeOf(tc.cmd); p != tc.p {
			t.Errorf("purposeOf(%q) = %d, want %d", tc.cmd, p, tc.p)
		}
		if f := shellcmd.Family(tc.cmd); f != tc.family {
			t.Errorf("Family(%q) = %q, want %q", tc.cmd, f, tc.family)
		}
	}
}

func TestErrorLine(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"Exit code 1\n# pkg\n./main.go:12:2: undefined: foo\nFAIL\tpkg [build failed]", "./main.go:12:2: undefined: foo"},
		{"Exit code 1\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    x()\nNameError: name 'x' is not defined\n", "NameError: name 'x' is not defined"},
		{"Exit code 2\nnpm ERR! code ELIFECYCLE\nError: Cannot find module 'left-pad'\n", "Error: Cannot find module 'left-pad'"},
		{"Exit code 1\n--- FAIL: TestX (0.00s)\n    x_test.go:9: got 2, want 3\nFAIL", "x_test.go:9: got 2, want 3"},
		{"Exit code 1\n--- FAIL: TestX (0.00s)\nFAIL", "--- FAIL: TestX (0.00s)"},
		{"Exit code 1", ""},
		{"Exit code 1\ncom.parcelo.sdk.ErrorMappingTest > case03[jvmTest] PASSED\ncom.parcelo.sdk.RetryPolicyTest > backoffDoublesUntilCap[jvmTest] FAILED\n    java.lang.AssertionError: expected:<800> but was:<813>\n",
			"com.parcelo.sdk.RetryPolicyTest > backoffDoublesUntilCap[jvmTest] FAILED"},
	} {
		if got := errorLine(tc.out); got != tc.want {
			t.Errorf("errorLine(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestTestOutcome(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"ok  \ta/b\t0.1s\nok  \ta/c\t0.2s", "2 packages ok"},
		{"--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/sub (0.00s)\nFAIL\ta/b\t0.1s\nok  \ta/c\t0.1s", "1 package ok, 1 failed; failing: TestA"},
		{"===== 1 failed, 41 passed in 2.31s =====\nFAILED tests/test_api.py::test_login - AssertionError", "1 failed, 41 passed; failing: tests/test_api.py::test_login"},
		{"Tests:       2 failed, 98 passed, 100 total", "2 failed, 98 passed, 100 total"},
		{"test result: ok. 12 passed; 0 failed; 0 ignored", "12 passed, 0 failed"},
		{"nothing to see", ""},
	} {
		if got := testOutcome(tc.out); got != tc.want {
			t.Errorf("testOutcome(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestCommitMessage(t *testing.T) {
	for in, want := range map[string]string{
		`git commit -m "queue: claim by rename"`:                                              "queue: claim by rename",
		`git add -A && git commit -am 'fix: typo'`:                                            "fix: typo",
		"git commit -m \"$(cat <<'EOF'\nstore: Lookup returns (Item, bool)\n\nWhy.\nEOF\n)\"": "store: Lookup returns (Item, bool)",
		`git commit --amend --no-edit`:                                                        "",
	} {
		if got := commitMessage(in); got != want {
			t.Errorf("commitMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzExtractive: any turns summarise without panicking, to a section that
// starts with its heading, the same way twice.
func FuzzExtractive(f *testing.F) {
	f.Add("fix the test", "We'll use X instead of Y because Z.", "go test ./...", "--- FAIL: TestX\nx_test.go:1: boom", 1, "a.go")
	f.Add("", "", "", "", 0, "")
	f.Add("always use tabs", "```\ncode. More\n", "git commit -m \"x\"", "Traceback (most recent call last):", 2, "a b")
	f.Fuzz(func(t *testing.T, prompt, said, cmd, out string, exit int, path string) {
		turns := []Turn{
			{Role: User, Text: prompt},
			{Role: Assistant, Text: said},
			{Role: Tool, Tool: "Bash", Input: cmd, Text: out, ExitCode: &exit, IsError: exit != 0},
			{Role: Tool, Tool: "Edit", Input: path},
			{Role: Tool, Tool: "Bash", Input: cmd, Text: out},
			{Role: Tool, Tool: "Write", Input: path, IsError: true, Text: out},
			{Role: Assistant, Text: out},
		}
		req := Request{Segment: Segment{Index: 4, Turns: turns}}
		a, err := Extractive{}.Summarize(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.Summary, "## Segment 4\n") {
			t.Fatalf("summary:\n%s", a.Summary)
		}
		b, _ := Extractive{}.Summarize(context.Background(), req)
		if golden(a) != golden(b) {
			t.Fatal("not deterministic")
		}
		for _, it := range a.Items {
			if it.Importance < 0 || it.Importance > 1 || it.Title == "" {
				t.Fatalf("item %+v", it)
			}
		}
	})
}

func TestSegmentIndex(t *testing.T) {
	req := Request{PreviousSummary: "## Segment 1\n\nx\n\n## Segment 2 (…)\n\n### Details\n## Segmentation is not a heading we count\n"}
	if got := SegmentIndex(req); got != 3 {
		t.Errorf("segmentIndex = %d, want 3", got)
	}
	req.Segment.Index = 9
	if got := SegmentIndex(req); got != 9 {
		t.Errorf("segmentIndex = %d, want 9", got)
	}
}
