package prose

import (
	"slices"
	"strings"
	"testing"
)

// TestLineAfterName: a lower-case word that starts sentences starts one
// after a file name, which afterWord does not count as a word.
func TestLineAfterName(t *testing.T) {
	got := Line("Connect fails, log is in logs/connect-deploy.log. we deploy with rsconnect. see main.go. run it")
	want := []string{"Connect fails, log is in logs/connect-deploy.log.", "we deploy with rsconnect.", "see main.go. run it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

// TestLineAfterParen: a sentence that ends with a parenthesis ends there,
// even when the next starts with a lower-case name.
func TestLineAfterParen(t *testing.T) {
	got := Line("It rebuilds the index once (with KV_ACCESS_TOKEN set). markdown-it 14.1.0 is in the import map. See (e.g. the docs) for more.")
	want := []string{"It rebuilds the index once (with KV_ACCESS_TOKEN set).", "markdown-it 14.1.0 is in the import map.", "See (e.g. the docs) for more."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

// TestCutAtBoundaryParticle: "from now on" keeps its "on".
func TestCutAtBoundaryParticle(t *testing.T) {
	s := "Drop 0.9 support, the floor is 0.10 from now on, I want vim.lsp.get_clients and the new hl API"
	if got, want := CutAtBoundary(s, 90), "Drop 0.9 support, the floor is 0.10 from now on"; got != want {
		t.Errorf("CutAtBoundary = %q, want %q", got, want)
	}
	s = "The release notes are written by hand for every tag and then pasted into the GitHub release form on"
	if got, want := CutAtBoundary(s, 90), "The release notes are written by hand for every tag and then pasted into the GitHub"; got != want {
		t.Errorf("CutAtBoundary = %q, want %q", got, want)
	}
}

// TestCutAtBoundaryParen: a title is cut before a parenthesis, never at a
// clause inside one.
func TestCutAtBoundaryParen(t *testing.T) {
	s := "scripts/reindex.ts rebuilds the old index once (it has to run against the Deploy KV too, with KV_ACCESS_TOKEN set)"
	if got, want := CutAtBoundary(s, 90), "scripts/reindex.ts rebuilds the old index once"; got != want {
		t.Errorf("CutAtBoundary = %q, want %q", got, want)
	}
	s = "The queue drains in two seconds, the workers restart on deploy, and the dashboard shows it"
	if got, want := CutAtBoundary(s, 70), "The queue drains in two seconds, the workers restart on deploy"; got != want {
		t.Errorf("CutAtBoundary = %q, want %q", got, want)
	}
}

// TestSentenceStartsWithDotfile: a sentence may start with a dotfile's
// name, after a word or a number; not after an abbreviation.
func TestSentenceStartsWithDotfile(t *testing.T) {
	for in, want := range map[string]int{
		"The gate's minimum is 90 now. .nvmrc is 22.11.0.": 2,
		"The gate's minimum is 90. .nvmrc is 22.11.0.":     2,
		"Set it in e.g. .bashrc or your profile.":          1,
		"It ends with an ellipsis... .nvmrc is 22.11.0.":   1,
	} {
		if got := Sentences(in); len(got) != want {
			t.Errorf("Sentences(%q) = %q, want %d", in, got, want)
		}
	}
}

func TestUnemphasize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"**Schema.** One row per update.", "Schema. One row per update."},
		{"reported as one `__ft_range(ptr, len)` event", "reported as one `__ft_range(ptr, len)` event"},
		{"globs like `src/**/*.ts` and __init__ files", "globs like `src/**/*.ts` and __init__ files"},
		{"it is __the whole table__, not a row", "it is the whole table, not a row"},
		{"**Data pool `tank`: two mirrors, striped.** You get 16 TB.", "Data pool `tank`: two mirrors, striped. You get 16 TB."},
		{"an unclosed `span **runs** on", "an unclosed `span **runs** on"},
	} {
		if got := unemphasize(tc.in); got != tc.want {
			t.Errorf("unemphasize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSentencesAfterCode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"The unmanaged tablet is up as keyspace `legacy`. start the MoveTables tonight.", 2},
		{"A 2048-bit key under selector s2026a for ledgerly.io. milter_default_action is still accept.", 2},
		{"Use `go test ./...` for the unit tests.", 1},
		{"So k6's p95 stayed near 420 ms. That's coordinated omission.", 2},
		{"I asked Ms. Jansen about it.", 1},
		{"The retry waits 30 s. That's too short for a tunnel.", 2},
		{"The median way is 71 m. That explains the gaps.", 2},
		{"Compare 3 vs. 4 workers.", 1},
		{"The repeats are our doing, not Stripe's. forward() gave billing-svc 5 seconds to answer.", 2},
		{".nvmrc and the engines field both say Node 20.11. verifyStripe compares the timestamp with the clock.", 2},
		{"See e.g. iOS 17 for that.", 1},
	} {
		if got := Sentences(tc.in); len(got) != tc.want {
			t.Errorf("Sentences(%q) = %q, want %d", tc.in, got, tc.want)
		}
	}
}

// TestSentenceAroundCode: a sentence that goes on after a command shown
// on its own is one sentence, the command in it (blind AQ: "and open a
// hardware ticket for the DIMM." was an outcome of its own).
func TestSentenceAroundCode(t *testing.T) {
	in := "Corrected errors don't crash jobs. I'd drain it now:\n\n`scontrol update nodename=cn03 state=drain`\n\nand open a hardware ticket for the DIMM. cn03 stays drained.\n\nAnd that is all.\n"
	got := Sentences(in)
	want := []string{"Corrected errors don't crash jobs.", "I'd drain it now: `scontrol update nodename=cn03 state=drain` and open a hardware ticket for the DIMM.", "cn03 stays drained.", "And that is all."}
	if !slices.Equal(got, want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
}

// TestSettingsBlock: a few lines of settings a sentence introduces are
// what it says (blind AQ: "put these in `/etc/my.cnf.d/slurm.cnf`:" and
// the InnoDB settings); a block of code is not.
func TestSettingsBlock(t *testing.T) {
	in := "Put these in `/etc/my.cnf.d/slurm.cnf`:\n\n```\n[mysqld]\ninnodb_buffer_pool_size=4G\ninnodb_lock_wait_timeout=900\n```\n\nThen restart it.\n"
	if got, want := Sentences(in)[0], "Put these in `/etc/my.cnf.d/slurm.cnf`: `[mysqld]`, `innodb_buffer_pool_size=4G`, `innodb_lock_wait_timeout=900`"; got != want {
		t.Errorf("Sentences[0] = %q, want %q", got, want)
	}
	code := "The handler now reads:\n\n```\nfunc h(w http.ResponseWriter) {\n\tx := 1\n\ty := 2\n}\n```\n"
	if got := Sentences(code)[0]; got != "The handler now reads:" {
		t.Errorf("Sentences[0] = %q, want the sentence alone", got)
	}
}

// TestLineQuotedQuestion: a question quoted inside a sentence does not
// end it; one that closes a quoted sentence before a new one does.
func TestLineQuotedQuestion(t *testing.T) {
	got := Line(`The idle time is 45 seconds now; the "Are you still there?" warning stays at 10 seconds. She asked "is it done?" Then she left.`)
	want := []string{`The idle time is 45 seconds now; the "Are you still there?" warning stays at 10 seconds.`, `She asked "is it done?"`, `Then she left.`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Line = %q, want %q", got, want)
	}
}
