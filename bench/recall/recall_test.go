package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReplay replays one recorded project without a daemon and checks the
// mechanics: every session start is answered, the packs are scored, and
// the baselines run. It also guards against a fall in quality: the packs
// must find at least minRecall of the facts and beat the last 6,000
// characters of the previous session (the benchmark itself, over all
// projects, is what measures quality).
func TestReplay(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "recall", "py-cli")
	if _, err := os.Stat(filepath.Join(dir, "recorded")); err != nil {
		t.Skipf("no recorded test set to replay (%v): go run ./bench/recall record %s", err, dir)
	}
	ctx := context.Background()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	if err := build(ctx, root, bin); err != nil {
		t.Fatal(err)
	}
	r, err := benchProject(ctx, &replayer{cairn: bin}, dir, func(s string) { t.Error(s) })
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Errors {
		t.Errorf("hook call failed: %s", e)
	}
	_, recs, err := loadProject(dir, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	starts := 0
	for _, rec := range recs {
		for _, c := range rec.Calls {
			if c.Event == "SessionStart" {
				starts++
			}
		}
	}
	if r.Starts != starts {
		t.Errorf("%d session starts answered, want the %d recorded", r.Starts, starts)
	}
	for i, s := range r.sc.Sessions {
		if p, ok := r.packs[s.Name]; !ok || (i > 0 && strings.TrimSpace(p) == "") {
			t.Errorf("session %s received no pack (%q)", s.Name, p)
		}
	}
	boundaries := 0
	for i, s := range r.sc.Sessions {
		if i > 0 && !s.Clear {
			boundaries++
		}
	}
	for name, s := range map[string]Score{"cairn": r.Cairn, "empty pack": r.Empty, "last 6,000 chars": r.Tail} {
		if s.Packs != boundaries || len(s.Boundaries) != boundaries {
			t.Errorf("%s: %d packs scored, want %d", name, s.Packs, boundaries)
		}
		if s.Expected == 0 || s.Found > s.Expected || s.StaleFound > s.Stale {
			t.Errorf("%s: found %d of %d facts, %d of %d stale", name, s.Found, s.Expected, s.StaleFound, s.Stale)
		}
	}
	if r.Empty.Found != 0 || r.Empty.Tokens != 0 {
		t.Errorf("the empty pack found %d facts in %d tokens", r.Empty.Found, r.Empty.Tokens)
	}
	if r.Tail.Found == 0 || r.Tail.MeanTokens() == 0 {
		t.Errorf("the last 6,000 characters of the previous session found %d facts in %d tokens: the transcripts were not rendered", r.Tail.Found, r.Tail.MeanTokens())
	}
	const minRecall = 0.9
	if r.Cairn.Recall() < minRecall || r.Cairn.Recall() <= r.Tail.Recall() {
		t.Errorf("pack recall %.2f (last 6,000 characters: %.2f), want at least %.2f and more than the baseline", r.Cairn.Recall(), r.Tail.Recall(), minRecall)
	}
	if r.Cairn.Tokens == 0 || r.Budget <= 0 {
		t.Errorf("cairn's packs took %d tokens of a budget of %d", r.Cairn.Tokens, r.Budget)
	}
	// -rescore: the packs written out score as the replay scored them.
	saved := t.TempDir()
	if err := writePacks(filepath.Join(saved, r.sc.Project), r.packs); err != nil {
		t.Fatal(err)
	}
	again, err := benchProject(ctx, &replayer{rescore: saved}, dir, func(s string) { t.Error(s) })
	if err != nil {
		t.Fatal(err)
	}
	if a, b := again.Cairn, r.Cairn; a.Found != b.Found || a.Expected != b.Expected || a.StaleFound != b.StaleFound || a.Tokens != b.Tokens {
		t.Errorf("rescored: found %d/%d, stale %d, %d tokens; the replay: %d/%d, %d, %d", a.Found, a.Expected, a.StaleFound, a.Tokens, b.Found, b.Expected, b.StaleFound, b.Tokens)
	}
}

func TestScore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := `project: tiny
sessions:
  - name: a
    prompts: [{user: go, model: [{text: ok}]}]
    facts:
      - {id: port, kind: environment, text: port 8080, match: ["\\b8080\\b"], scope: durable, until: c}
      - {id: todo, kind: open, text: add retries, match: ["retr"], scope: next}
  - {name: b, clear: true}
  - name: c
    prompts: [{user: go, model: [{text: ok}]}]
    facts:
      - {id: port2, kind: environment, text: port 8081, match: ["\\b8081\\b"], scope: durable}
  - name: d
    prompts: [{user: go, model: [{text: ok}]}]
`
	if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := LoadScenario(dir, func(s string) { t.Error(s) })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		packs         map[string]string
		found, expect int
		stale, staleN int
	}{
		{"empty", map[string]string{}, 0, 3, 0, 1},
		{"all current", map[string]string{"c": "- listens on 8080\n- open: add retries", "d": "- port 8081"}, 3, 3, 0, 1},
		{"one line per fact", map[string]string{"c": "8080 retries"}, 2, 3, 0, 1},
		{"stale shown", map[string]string{"d": "- listens on 8080"}, 0, 3, 1, 1},
		{"stale as history", map[string]string{"d": "- listens on 8081, moved from 8080"}, 1, 3, 0, 1},
		{"stale in a change's words", map[string]string{"d": "- 8080 is taken, let's make it 8081"}, 1, 3, 0, 1},
		{"stale beside what replaced it", map[string]string{"d": "- the proxy took 8080, so it listens on 8081"}, 1, 3, 0, 1},
		{"stale gone", map[string]string{"d": "- 8080 is not used anymore, nothing listens there"}, 0, 3, 0, 1},
		{"stale said now", map[string]string{"d": "- the API is now on 8080"}, 0, 3, 1, 1},
		{"stale taken back", map[string]string{"d": "- Forget what I said about port 8080, any free port will do"}, 0, 3, 0, 1},
		{"stale in a cut substitution", map[string]string{"d": "- Command: `sed -i 's/listen 8080;/listen $(echo …`"}, 0, 3, 0, 1},
		{"stale scrapped", map[string]string{"d": "### Scrap the listener on 8080 — 2026-12-03"}, 0, 3, 0, 1},
		{"open item said to work", map[string]string{"c": "- listens on 8080\n- retries work now, green in all runs", "d": "- port 8081"}, 3, 3, 0, 1},
		{"stale in the account of its change", map[string]string{"d": "### New proxy — Dec 6 (session cccccccc)\n- the proxy needs 8080"}, 0, 3, 0, 1},
		{"stale under an older heading", map[string]string{"d": "### Set up — Dec 5 (session aaaaaaaa)\n- listens on 8080"}, 0, 3, 1, 1},
		{"stale under the next heading", map[string]string{"d": "### New proxy — Dec 6 (session cccccccc)\n- port 8081\n### Set up — Dec 5 (session aaaaaaaa)\n- listens on 8080"}, 1, 3, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := score(sc, func(k int) string { return c.packs[sc.Sessions[k].Name] }, map[string]int{"aaaaaaaa": 0, "cccccccc": 2})
			if s.Found != c.found || s.Expected != c.expect || s.StaleFound != c.stale || s.Stale != c.staleN {
				t.Errorf("found %d/%d, stale %d/%d; want %d/%d, %d/%d", s.Found, s.Expected, s.StaleFound, s.Stale, c.found, c.expect, c.stale, c.staleN)
			}
		})
	}
}

// A session's heading is not an open item presented as open, whatever
// it names; an open item's own line is, even with its session beside it.
func TestDoneHeading(t *testing.T) {
	for line, want := range map[string]bool{
		"### Fuzzing — Dec 6 (session 82560cdb)":                          true,
		"### Dale's list came in, I pasted it — Dec 5 (session 6b8c078b)": true,
		"- Next session: fuzzing with cargo-fuzz (session 82560cdb)":      false,
		"- Fuzzing is the next thing to do":                               false,
	} {
		if got := done.MatchString(line); got != want {
			t.Errorf("done.MatchString(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestTail(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "def"},
		{"añb€c", 3, "b€c"},
	} {
		if got := tail(c.in, c.n); got != c.want {
			t.Errorf("tail(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestLineKind(t *testing.T) {
	for line, want := range map[string]string{
		"- Request: What about that black screen thing?":                   "Request",
		"- **Superloop it is** (decision, 2026-12-02, id 9PGSRZGZ)":        "core item",
		"- One thing I haven't got to: no dry run yet. (session fd414996)": "open item",
		"- Root cause: On HPOS: we never read orders through post meta":    "Root cause",
		"- Files changed: config/dev.exs, .tool-versions":                  "Files changed",
		"- `make test`: passes":                                            "other",
	} {
		if got := lineKind(line); got != want {
			t.Errorf("lineKind(%q) = %q, want %q", line, got, want)
		}
	}
	if got := tally(map[string]int{"Request": 2, "Outcome": 3, "Decision": 2}); got != "Outcome 3, Decision 2, Request 2" {
		t.Errorf("tally = %q", got)
	}
}

// The recording user's own home, as a tool's output may print it (a
// Python traceback from a pyenv install), stays out of the recordings
// and reads as a neutral home on replay; the run's own folders under it
// keep their placeholders.
func TestUserHomeLeftOut(t *testing.T) {
	t.Setenv("HOME", "/srv/recorder")
	p := paths{home: "/srv/recorder/tmp/home", project: "/tmp/proj"}
	in := `File "/srv/recorder/.pyenv/versions/3.11.7/lib/python3.11/csv.py", in /srv/recorder/tmp/home/.claude and /tmp/proj/a.go`
	got := p.replacer(true).Replace(in)
	if want := `File "@USERHOME@/.pyenv/versions/3.11.7/lib/python3.11/csv.py", in @HOME@/.claude and @PROJECT@/a.go`; got != want {
		t.Fatalf("recorded as %q, want %q", got, want)
	}
	if back := (paths{home: "/r/home", project: "/r/proj"}).replacer(false).Replace(got); back != `File "/home/user/.pyenv/versions/3.11.7/lib/python3.11/csv.py", in /r/home/.claude and /r/proj/a.go` {
		t.Fatalf("replayed as %q", back)
	}
}

// TestLeftOutListShowsNothing: the closing list of what was left out
// names titles cut short as pointers; a fact it names is not found, and
// a stale one it names is not shown.
func TestLeftOutListShowsNothing(t *testing.T) {
	pack := "## Core memory\n- the API listens on 4100\n\n_Left out for room: 1 memory, among them “The API listens on 3001” (`cairn show X`)._\n"
	lines := shown(pack, nil)
	for _, l := range lines {
		if strings.Contains(l.full, "3001") {
			t.Errorf("shown(pack) kept the list of what was left out: %q", l.full)
		}
	}
	if !slices.ContainsFunc(lines, func(l line) bool { return l.full == "- the API listens on 4100" }) {
		t.Errorf("shown(pack) = %v, lost the core line", lines)
	}
}

// TestPointerStatesNothing: where a line comes from (a core item's kind,
// day and random id, an open item's session, a hit's file) is no part of
// what it states.
func TestPointerStatesNothing(t *testing.T) {
	for in, want := range map[string]string{
		"- **Stage tanks run 4G**: why (decision, Dec 7, id 8FG8DW13)":           "- **Stage tanks run 4G**: why",
		"- Verification next time. (session 8fe98fab)":                           "- Verification next time.",
		"- the cron runs at 02:15 (decision, session 8fe98fab, Dec 7, a.md:3-9)": "- the cron runs at 02:15",
		"- Tests pass (4 passed, 20 passed)":                                     "- Tests pass (4 passed, 20 passed)",
		"### Found it — Dec 6 (session a784d8c7)":                                "### Found it — Dec 6 (session a784d8c7)",
	} {
		if got := shown(in, nil)[0].text; got != want {
			t.Errorf("shown(%q) states %q, want %q", in, got, want)
		}
	}
}

// TestCheckLabels: a labelled line that states a fact counts once, and
// as mislabelled when its label does not fit the fact's kind.
func TestCheckLabels(t *testing.T) {
	f := Fact{ID: "corosync-net", Kind: "decision", match: []*regexp.Regexp{regexp.MustCompile(`corosync`), regexp.MustCompile(`own network`)}}
	lines := shown(strings.Join([]string{
		"- Root cause: The fix is to give corosync its own network.",
		"- Decision: The fix is to give corosync its own network.",
		"- Corosync gets its own network.",         // no label
		"- Request: give corosync its own network", // a label no kind is checked against
		"- **Give corosync its own network**",      // a core item
	}, "\n"), nil)
	var b Boundary
	checkLabels(&b, lines, f)
	if b.Labelled != 2 || len(b.Mislabelled) != 1 || !strings.HasPrefix(b.Mislabelled[0], "corosync-net: - Root cause:") {
		t.Errorf("labelled %d, mislabelled %q; want 2 and the root cause line", b.Labelled, b.Mislabelled)
	}
}
