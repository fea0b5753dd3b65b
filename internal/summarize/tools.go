package summarize

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// op is what a tool does, as far as a summary cares.
type op int

const (
	opOther   op = iota
	opCommand    // runs a shell command
	opRead       // reads or searches files
	opEdit       // changes an existing file
	opWrite      // writes a whole file (often a new one)
)

// toolOp classifies the tools of Claude Code, Codex and the usual editor
// agents by name. Unknown tools count as neither reading nor changing.
func toolOp(name string) op {
	switch name {
	case "Bash", "bash", "shell", "exec_command", "local_shell", "container.exec", "run_terminal_cmd", "run_command":
		return opCommand
	case "Read", "NotebookRead", "Grep", "Glob", "LS", "view", "read_file", "list_dir", "grep_search", "file_search", "codebase_search", "find_files":
		return opRead
	case "Edit", "MultiEdit", "NotebookEdit", "apply_patch", "str_replace_based_edit_tool", "str_replace_editor", "edit_file", "replace_in_file", "search_replace":
		return opEdit
	case "Write", "write_file", "create_file", "write_to_file":
		return opWrite
	}
	return opOther
}

// input is the turn's Input without a leading "Tool: ".
func input(t Turn) string {
	in := strings.TrimSpace(t.Input)
	if t.Tool != "" && strings.HasPrefix(in, t.Tool+": ") {
		in = strings.TrimSpace(in[len(t.Tool)+2:])
	}
	return in
}

// paths are the files a file tool touched: its Paths, or the Input of a
// tool that takes a path, when it looks like one.
func paths(t Turn) []string {
	if len(t.Paths) > 0 {
		return t.Paths
	}
	switch t.Tool {
	case "Read", "NotebookRead", "view", "read_file", "Edit", "MultiEdit", "NotebookEdit", "edit_file",
		"replace_in_file", "search_replace", "Write", "write_file", "create_file", "write_to_file":
	default:
		return nil
	}
	in := input(t)
	if in == "" || strings.ContainsAny(in, " \t*?{}") {
		return nil
	}
	return []string{in}
}

// failed reports whether a tool turn failed.
func failed(t Turn) bool {
	return t.IsError || t.ExitCode != nil && *t.ExitCode != 0
}

// What a command is for.
type purpose int

const (
	purposeOther purpose = iota
	purposeTest
	purposeBuild
	purposeLint
	purposeLook // ls, cat, git status: looking around, not worth listing
	purposeCommit
)

var (
	testCmd    = lazyre.New(`(^|[\s;&|('"])(go test|pytest|py\.test|python -m pytest|python3 -m pytest|(npm|pnpm|yarn|bun)( run)? test|deno test|cargo (test|nextest)|jest|vitest|mocha|rspec|phpunit|mvn( \S+)* test|(\./)?gradlew? test|make (test|check)|ctest|dotnet test|tox|nox|mix test|swift test|zig build test)\b`)
	buildCmd   = lazyre.New(`(^|[\s;&|('"])(go build|go install|cargo build|(npm|pnpm|yarn) run build|tsc|make|cmake --build|mvn( \S+)* (package|compile)|(\./)?gradlew? build|dotnet build|swift build|docker build)\b`)
	lintCmd    = lazyre.New(`(^|[\s;&|('"])(go vet|staticcheck|golangci-lint|gofmt|eslint|prettier|ruff|flake8|pylint|mypy|pyright|black --check|cargo clippy|cargo fmt|shellcheck|(npm|pnpm|yarn) run lint)\b`)
	lookCmd    = lazyre.New(`^(ls|cat|head|tail|pwd|echo|grep|rg|find|fd|wc|which|file|stat|tree|less|git (status|diff|log|show|branch|remote)|sed -n)\b`)
	commitCmd  = lazyre.New(`(^|[\s;&|('"])git commit\b`)
	quotedData = lazyre.New(`(\b(?:grep|egrep|fgrep|rg|ag|echo|printf)(?:\s+-[\w=-]+)*\s+)(?:'[^']*'|"[^"]*")`)
)

func purposeOf(key string) purpose {
	// What a search or an echo quotes is data: `grep -rn 'cargo build'`
	// builds nothing.
	key = quotedData.ReplaceAllString(key, "$1''")
	switch {
	case testCmd.MatchString(key):
		return purposeTest
	case commitCmd.MatchString(key):
		return purposeCommit
	case lintCmd.MatchString(key):
		return purposeLint
	case buildCmd.MatchString(key):
		return purposeBuild
	case lookCmd.MatchString(key):
		return purposeLook
	}
	return purposeOther
}

var (
	commitMsg        = lazyre.New(`\s-[a-zA-Z]*m\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')`)
	commitHeredoc    = lazyre.New(`<<\s*'?"?EOF'?"?\s*\n\s*(.+)`)
	goFail           = lazyre.New(`(?m)^\s*--- FAIL: (\S+)`)
	goOK             = lazyre.New(`(?m)^ok\s+\S+`)
	goFailPkg        = lazyre.New(`(?m)^FAIL\s+\S+\s`)
	pyCounts         = lazyre.New(`(\d+) (passed|failed|errors?)\b`)
	pyFailed         = lazyre.New(`(?m)^FAILED (\S+)`)
	jestCounts       = lazyre.New(`(?m)^Tests:\s+(.*)$`)
	cargoCounts      = lazyre.New(`test result: \w+\. (\d+) passed; (\d+) failed`)
	fileLineError    = lazyre.New(`^\S+:\d+(:\d+)?:? .+`)
	passLine         = lazyre.New(`(?i)(\bPASSED|\bPASS|\bOK|\bSKIPPED|✓)\s*(\(.*\))?$|^(ok|PASS|--- PASS:)\s`)
	errorWords       = lazyre.New(`(?i)\b(error|fail(ed|ure)?|panic|exception|cannot|can't|undefined|not found|no such|denied|fatal|expected|mismatch|timeout|timed out|refused|traceback|assert)`)
	uninformativeErr = lazyre.New(`^(Exit code \d+|exit status \d+|FAIL|FAIL\s+\S+\s+[\d.]+s|FAILED|Error: Process completed with exit code \d+\.?|make: \*\*\*.*|npm ERR! (code|errno|A complete log).*|error: Recipe .*|\s*)$`)
)

// commitMessage is the first line of a git commit's -m message or heredoc.
func commitMessage(cmd string) string {
	if m := commitHeredoc.FindStringSubmatch(cmd); m != nil {
		return strings.TrimSpace(m[1])
	}
	if m := commitMsg.FindStringSubmatch(cmd); m != nil {
		msg := m[1] + m[2]
		if i := strings.Index(msg, `\n`); i >= 0 {
			msg = msg[:i]
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return strings.TrimSpace(msg)
	}
	return ""
}

// testOutcome reads test counts and failing tests from a test run's
// output: "14 passed", "2 failed: TestClaim, TestRetry".
func testOutcome(out string) string {
	var failing []string
	for _, m := range goFail.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "/") || len(failing) == 0 {
			failing = prose.AppendNew(failing, m[1])
		}
	}
	for _, m := range pyFailed.FindAllStringSubmatch(out, -1) {
		failing = prose.AppendNew(failing, m[1])
	}
	counts := ""
	switch {
	case cargoCounts.MatchString(out):
		m := cargoCounts.FindStringSubmatch(out)
		counts = m[1] + " passed, " + m[2] + " failed"
	case jestCounts.MatchString(out):
		counts = strings.TrimSpace(jestCounts.FindStringSubmatch(out)[1])
	case pyCounts.MatchString(out) && !goOK.MatchString(out):
		var parts []string
		for _, m := range pyCounts.FindAllStringSubmatch(out, 4) {
			parts = append(parts, m[1]+" "+m[2])
		}
		counts = strings.Join(parts, ", ")
	default:
		ok, fail := len(goOK.FindAllString(out, -1)), len(goFailPkg.FindAllString(out, -1))
		switch {
		case ok > 0 && fail > 0:
			counts = plural(ok, "package") + " ok, " + itoa(fail) + " failed"
		case ok > 0:
			counts = plural(ok, "package") + " ok"
		case fail > 0:
			counts = plural(fail, "package") + " failed"
		}
	}
	if len(failing) > 0 {
		names := failing
		if len(names) > 3 {
			names = append(names[:3:3], "…")
		}
		f := "failing: " + strings.Join(names, ", ")
		if counts == "" {
			return f
		}
		return counts + "; " + f
	}
	return counts
}

// errorLine picks the line of a failed tool's output that says what went
// wrong: a file:line error, a failing test, the last line of a traceback,
// or the first line that speaks of an error.
func errorLine(out string) string {
	lines := strings.Split(out, "\n")
	if strings.Contains(out, "Traceback (most recent call last)") {
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" && !uninformativeErr.MatchString(l) {
				return Clip(l, 160)
			}
		}
	}
	first, fileLine := "", ""
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		if l == "" || uninformativeErr.MatchString(l) || passLine.MatchString(l) {
			continue // "ErrorMappingTest > case03 PASSED" names an error and reports none
		}
		if strings.HasPrefix(l, "--- FAIL:") {
			continue // the test's own lines say more; the name comes from testOutcome
		}
		if fileLine == "" && fileLineError.MatchString(l) && errorWords.MatchString(l) {
			fileLine = l
		}
		if first == "" && errorWords.MatchString(l) {
			first = l
		}
	}
	switch {
	case fileLine != "":
		return Clip(fileLine, 160)
	case first != "":
		return Clip(first, 160)
	}
	for _, failLines := range []bool{false, true} {
		for _, raw := range lines {
			l := strings.TrimSpace(raw)
			if l != "" && !uninformativeErr.MatchString(l) && strings.HasPrefix(l, "--- FAIL:") == failLines {
				return Clip(l, 160)
			}
		}
	}
	return ""
}

// ShowsOutput reports whether a tool turn's output belongs in a summary's
// transcript: a command's, an unknown tool's or a failure's, not a file's
// contents.
func ShowsOutput(t Turn) bool {
	op := toolOp(t.Tool)
	return op == opCommand || op == opOther || failed(t)
}

// ToolInput is the turn's Input without a leading "Tool: ".
func ToolInput(t Turn) string { return input(t) }
