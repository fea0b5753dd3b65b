package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

func TestSteps(t *testing.T) {
	for in, want := range map[string][]string{
		"a && b || c; d":                    {"a", "b", "c", "d"},
		"sed -i 's/a;b/c && d/' f && cat f": {"sed -i 's/a;b/c && d/' f", "cat f"},
		`printf "x\" && y" > f; ls`:         {`printf "x\" && y" > f`, "ls"},
		"echo a \\&& b":                     {"echo a \\&& b"},
		"ls | wc -l":                        {"ls | wc -l"},
	} {
		if got := Steps(in); !slices.Equal(got, want) {
			t.Errorf("Steps(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEdits(t *testing.T) {
	for in, want := range map[string]bool{
		"sed -i 's/a/b/' f": true, "sed -E -i 's/a/b/' f": true, "sed -ri 's/a/b/' f": true, "perl -pi -e 's/a/b/' f": true,
		"git mv a b": true, "rm -f x": true, "sed -n '1,5p' f": false, "sed -e 's/a/b/' -i f": true, "sed --in-place 's/a/b/' f": true, "sed -i.bak 's/a/b/' f": true, "sed 's/a/b/' f": false, "rmdir x": false, "grep -i x f": false,
	} {
		if got := Edits(in); got != want {
			t.Errorf("Edits(%q) = %v, want %v", in, got, want)
		}
	}
	if !Elided("rm -f a && … && sed -i 's/x/y/' f") || Elided("echo … done") {
		t.Error("Elided")
	}
}

func TestElide(t *testing.T) {
	long := "rm -f netlify.toml && mkdir -p public && printf '/*\\n  Cross-Origin-Opener-Policy: same-origin\\n' > public/_headers && sed -i 's/namespace: ci-agents/namespace: build-pods/' k8s/pod.yaml && cat k8s/pod.yaml"
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{long, 120, "rm -f netlify.toml && … && sed -i 's/namespace: ci-agents/namespace: build-pods/' k8s/pod.yaml && …"},
		{long, 400, long},
		{"sed -i 's/a/b/' f && cat " + strings.Repeat("x", 120), 120, "sed -i 's/a/b/' f && cat " + strings.Repeat("x", 120)}, // no edit after the cut
		// An edit that starts before the cut and ends after it.
		{"sed -i 's/a/b/' f && " + long[40:190], 120, "sed -i 's/a/b/' f && … && sed -i 's/namespace: ci-agents/namespace: build-pods/' k8s/pod.yaml && …"},
	} {
		if got := Elide(tc.in, tc.n); got != tc.want {
			t.Errorf("Elide(%q, %d) =\n%q, want\n%q", tc.in, tc.n, got, tc.want)
		}
	}
}

func FuzzSteps(f *testing.F) {
	f.Add("a && 'b;c' || d")
	f.Fuzz(func(t *testing.T, s string) {
		// The steps are the command's own text, in order, none overlapping.
		pos := 0
		for _, st := range Steps(s) {
			i := strings.Index(s[pos:], st)
			if i < 0 {
				t.Fatalf("step %q of %q is not in the rest %q", st, s, s[pos:])
			}
			pos += i + len(st)
		}
		if e := Elide(s, 40); len(e) > len(s) {
			t.Fatalf("Elide lengthened %q to %q", s, e)
		}
	})
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"go test ./...": "go test ./...",
		"cd /src/app && go test ./...  2>&1 | tail -n 40": "go test ./...",
		"npm test 2>&1 | grep -v warn | head":             "npm test",
		"pytest -x tests/test_api.py\nsecond line":        "pytest -x tests/test_api.py",
		"make   build": "make build",
		// A script's later lines that change files in place, not what a
		// here-document holds.
		"cat > worker/heartbeat.py <<'PY'\nimport boto3\nsed -i 's/x/y/' not-a-step.py\nPY\nsed -i 's/VISIBILITY_TIMEOUT = 900/VISIBILITY_TIMEOUT = 1800/' worker/config.py && grep VISIBILITY worker/config.py": "cat > worker/heartbeat.py <<'PY' && … && sed -i 's/VISIBILITY_TIMEOUT = 900/VISIBILITY_TIMEOUT = 1800/' worker/config.py",
		"python3 - <<EOF\nprint(1)\nEOF\nrm -f build/stale.o; make": "python3 - <<EOF && … && rm -f build/stale.o",
		"for f in *.go; do\n  gofmt -l $f\ndone":                    "for f in *.go; do",
		"grep foo <<< bar\nsed -i 's/a = 1/a = 2/' c.py":            "grep foo <<< bar && … && sed -i 's/a = 1/a = 2/' c.py",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPurposeAndFamily(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		p      Purpose
		family string
	}{
		{"go test -race ./queue/", PurposeTest, "go test"},
		{"CGO_ENABLED=0 go build ./cmd/app", PurposeBuild, "go build"},
		{"npm run test -- --watch=false", PurposeTest, "npm run test"},
		{"python -m pytest -q", PurposeTest, "python"},
		{"golangci-lint run ./...", PurposeLint, "golangci-lint run"},
		{"git commit -m 'x'", PurposeCommit, "git commit"},
		{"git status", PurposeLook, "git status"},
		{"ls -la", PurposeLook, "ls"},
		{"cat > w.py <<'PY' && … && sed -i 's/A = 9/A = 18/' c.py", PurposeOther, "cat >"},
		{"docker compose up -d", PurposeOther, "docker compose"},
		{"rm -f deploy/api.service && grep -rn 'systemctl\\|cargo build --release' .", PurposeOther, "rm"},
		{"echo y | cargo test", PurposeTest, "echo y"},
		{"grep -c FAIL log.txt || make test", PurposeTest, "make test"},
		{"cat README.md && npm test", PurposeTest, "npm test"},
		{"npm test 2>&1 | tail -12", PurposeTest, "npm test"},
		{"bash -lc 'cargo build --release'", PurposeBuild, "bash"},
	} {
		if p := PurposeOf(tc.cmd); p != tc.p {
			t.Errorf("PurposeOf(%q) = %d, want %d", tc.cmd, p, tc.p)
		}
		if f := Family(tc.cmd); f != tc.family {
			t.Errorf("Family(%q) = %q, want %q", tc.cmd, f, tc.family)
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
		if got := CommitMessage(in); got != want {
			t.Errorf("CommitMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
