package shellcmd

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Purpose is what a command is for: a summary tells how its tests,
// builds and lints ended and what it committed, and leaves out the
// looking around.
type Purpose int

const (
	PurposeOther Purpose = iota
	PurposeTest
	PurposeBuild
	PurposeLint
	PurposeLook // ls, cat, git status: looking around, not worth listing
	PurposeCommit
)

var (
	testCmd    = lazyre.New(`(^|[\s;&|('"])(go test|pytest|py\.test|python -m pytest|python3 -m pytest|(npm|pnpm|yarn|bun)( run)? test|deno test|cargo (test|nextest)|jest|vitest|mocha|rspec|phpunit|mvn( \S+)* test|(\./)?gradlew? test|make (test|check)|ctest|dotnet test|tox|nox|mix test|swift test|zig build test)\b`)
	buildCmd   = lazyre.New(`(^|[\s;&|('"])(go build|go install|cargo build|(npm|pnpm|yarn) run build|tsc|make|cmake --build|mvn( \S+)* (package|compile)|(\./)?gradlew? build|dotnet build|swift build|docker build)\b`)
	lintCmd    = lazyre.New(`(^|[\s;&|('"])(go vet|staticcheck|golangci-lint|gofmt|eslint|prettier|ruff|flake8|pylint|mypy|pyright|black --check|cargo clippy|cargo fmt|shellcheck|(npm|pnpm|yarn) run lint)\b`)
	lookCmd    = lazyre.New(`^(ls|cat|head|tail|pwd|echo|grep|rg|find|fd|wc|which|file|stat|tree|less|git (status|diff|log|show|branch|remote)|sed -n)\b`)
	commitCmd  = lazyre.New(`(^|[\s;&|('"])git commit\b`)
	searchStep = lazyre.New(`^(?:grep|egrep|fgrep|rg|ag|echo|printf)\b`)
)

// runSteps is key's steps without what a search or an echo is given,
// which is data: `grep -rn 'cargo build'` builds nothing, while `echo y
// | cargo test` runs the tests it pipes into.
func runSteps(key string) string {
	steps := Steps(key)
	for i, st := range steps {
		if searchStep.MatchString(st) {
			steps[i] = afterPipe(st)
		}
	}
	return strings.Join(steps, " && ")
}

// afterPipe is what step pipes its output into, "" when it pipes
// nothing: the first | outside quotes ends the search's arguments.
func afterPipe(step string) string {
	for i := range unquoted(step) {
		if step[i] == '|' {
			return strings.TrimSpace(step[i+1:])
		}
	}
	return ""
}

// editsFiles reports whether a step of key changes files in place: "cat
// > run.py <<'PY' && … && sed -i 's/a/b/' config.py" is no looking around.
func editsFiles(key string) bool {
	for _, st := range Steps(key) {
		if Edits(st) {
			return true
		}
	}
	return false
}

// PurposeOf reports what the command with key (see Key) is for. A line
// that does several things is a test run before a commit, a commit
// before a lint and a lint before a build: "make test" is a test run,
// not a build.
func PurposeOf(key string) Purpose {
	runs := runSteps(key)
	switch {
	case testCmd.MatchString(runs):
		return PurposeTest
	case commitCmd.MatchString(runs):
		return PurposeCommit
	case lintCmd.MatchString(runs):
		return PurposeLint
	case buildCmd.MatchString(runs):
		return PurposeBuild
	case lookCmd.MatchString(key) && !editsFiles(key):
		return PurposeLook
	}
	return PurposeOther
}

var (
	commitMsg     = lazyre.New(`\s-[a-zA-Z]*m\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')`)
	commitHeredoc = lazyre.New(`<<\s*'?"?EOF'?"?\s*\n\s*(.+)`)
)

// CommitMessage returns the first line of a git commit's -m message or
// heredoc, or "" if cmd gives neither.
func CommitMessage(cmd string) string {
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
