package change

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest/lex"
)

func TestMovedFolder(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"Templates are in `app/prompts/` and rendered with Jinja2.", "Templates moved to `prompts/` at the top level.", true},
		{"Fixtures live in tests/fixtures/ as JSON.", "I moved the fixtures to testdata/fixtures so go test finds them.", true},
		{"Templates are in `prompts/` and rendered with Jinja2.", "Templates moved to `prompts/` at the top level.", false},
		{"The handler is in src/index.ts.", "Moved the router into api/index.ts.", false},
		{"The API docs are in `docs/` (mkdocs).", "Moved the changelog to `docs/`.", false},
	} {
		if got := MovedFolder(Folders(tc.older), tc.newer); got != tc.want {
			t.Errorf("MovedFolder(%q, %q) = %v, want %v", tc.older, tc.newer, got, tc.want)
		}
	}
}

func TestEndsFolder(t *testing.T) {
	for s, want := range map[string]bool{
		"Templates moved to `prompts/` at the top level.":  true,
		"Fixtures are in tests/fixtures/ now":              true,
		"ends with a folder/":                              true,
		"The API reads /etc/acme/app.yaml and/or the env.": false,
		"No slash at all.":                                 false,
	} {
		if got := endsFolder(s); got != want {
			t.Errorf("endsFolder(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzChange: no sentence makes the readings panic, and what a change
// says of the sentence itself is answered.
func FuzzChange(f *testing.F) {
	for _, s := range []string{
		"Change of plan on updates: let's move to RAUC bundles.",
		"Forget what I said about vim.notify, you can use it again.",
		"Drop 0.9 support, the floor is 0.10 from now on.",
		"The API now listens on 8090 instead of 8080 → 8090.",
		"move the connector JSON into deploy/connect/ and rip the PARITY parameter out",
		"30 is too narrow; not `--fast` any more; from `a` to `b`",
	} {
		f.Add(s, "The API listens on 8080.")
	}
	f.Fuzz(func(t *testing.T, n, x string) {
		xk := TopicKeys(x)
		if c := Of(n); c != nil {
			c.Names(xk, n)
			c.Says(xk, Of(x), false)
			c.TakenOff(xk, x)
		}
		for _, k := range Removed(n) {
			Removes(k, xk, x)
		}
		State(n)
		MovedInto(Folders(x), xk, n)
		MovedFolder(Folders(x), n)
	})
}

// TestLeftOff: moving a thing off a value names the value it leaves.
func TestLeftOff(t *testing.T) {
	for s, old := range map[string]string{
		"Move the API off 8080, the sidecar proxy needs that port.": "8080",
		"also want to get off 2.1, backports has 2.2 now":           "2.1",
		"Take the day off tomorrow.":                                "",
		"Turn the cache off.":                                       "",
		"We moved the standup off the calendar.":                    "",
		"We migrated off 5.4 last week.":                            "5.4",
	} {
		c := Of(s)
		got := ""
		if c != nil && len(c.Old) > 0 {
			for k := range c.Old[0] {
				got = k
			}
		}
		if got != old {
			t.Errorf("Of(%q).Old = %q, want %q", s, got, old)
		}
	}
}

// TestPendingChange: what a thing still needs changed is no change made;
// a change said besides it still is one.
func TestPendingChange(t *testing.T) {
	for _, s := range []string{
		"The web player needs its source URL changed to `https://stream1.radiofluss.at/live.opus`.",
		"The DNS record has to be moved to the new host before Friday.",
	} {
		if c := Of(s); c != nil {
			t.Errorf("Of(%q) = %+v, want no change", s, c)
		}
	}
	if Of("We switched the player to Opus; the app still needs its URL updated.") == nil {
		t.Error("a change made besides a pending one is none")
	}
}

// TestDescribedNotChanged: a participle after an article describes a
// thing ("a bumped config_version" is how a rule says the file is
// edited), it announces no change; the verb after its subject does.
func TestDescribedNotChanged(t *testing.T) {
	for _, s := range []string{
		"It's in runbooks/rules.md: corosync.conf only ever changes through a corosync.conf.new with a bumped config_version, never in place.",
		"Each release is tagged from a branch with a changed files list in its description.",
		"Every drain starts on an upgraded node, never on pve1.",
	} {
		if c := Of(s); c != nil {
			t.Errorf("Of(%q) = %+v, want no change", s, c)
		}
	}
	for _, s := range []string{
		"We bumped the config_version to 14.",
		"The disk was replaced on Tuesday, the pool is resilvering.",
		"The changed timeout is 30 s now.",
	} {
		if Of(s) == nil {
			t.Errorf("Of(%q) = nil, want a change", s)
		}
	}
}

// TestReviewedChanges: a change said besides "should be" or "needs" is
// one; "the Friday rule's off" lapses; a text whose lower case is
// another length reads without panicking (a review found each).
func TestReviewedChanges(t *testing.T) {
	for _, s := range []string{"Everything should be fine now that we moved the database to db2.", "The config needs nothing else since we switched to Postgres 16."} {
		if Of(s) == nil {
			t.Errorf("Of(%q) = nil", s)
		}
	}
	if len(Removed("The Friday rule's off, the on-call rota covers weekends now.")) == 0 {
		t.Error("\"the Friday rule's off\" takes nothing back")
	}
	Removed(strings.Repeat("\u212a", 40) + " We're not migrating the billing database any more.")
}

// The review of the round of 28 December: what its new rules misread, each
// mended.
// TestReviewReplaced: replacedValue reads "replaced by X" as X replaced,
// so the new way is marked gone and the old one is not.
func TestReviewed28Replaced(t *testing.T) {
	for _, s := range []string{
		"The quarter-hour rounding was replaced by ExactMinutes.kt.",
		"nginx was replaced by Caddy on the edge box.",
	} {
		c := Of(s)
		if c == nil {
			t.Errorf("Of(%q) = nil", s)
			continue
		}
		for _, v := range c.Replaced {
			if v["exactmi"] || v["caddy"] {
				t.Errorf("Of(%q).Replaced = %v: the replacement is marked as the thing replaced", s, c.Replaced)
			}
		}
	}
}

// TestReviewFormatNow: formats said to hold now that FormatNow misses,
// its own doc example ("it's JSON instead of CSV") among them.
func TestReviewed28FormatNow(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		// FormatNow's doc comment names this case; the regex needs "now".
		{"It's JSON instead of CSV.", "json"},
		// a plural format word is the same change.
		{"Invoices are PDFs now.", "pdf"},
		// "until now" says what no longer holds: JSON is the old format here.
		{"Until now JSON was the only output.", ""},
	} {
		if got := FormatNow(tc.s); got != tc.want {
			t.Errorf("FormatNow(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestGoesBackPermits: a statement that goes back on something and does
// an act lets it be done as a permission does: Permits of its removed
// keys says which rules it takes back.
func TestGoesBackPermits(t *testing.T) {
	for _, tc := range []struct {
		newer, rule string
		want        bool
	}{
		{"Now a change of heart from the branch managers' meeting: show fines after all — but only the total owed.", "Please don't show fines on the screen, people read over each other's shoulders.", true},
		{"I changed my mind, write the claim reference back to Kindly through its import file.", "The tool must never write to Kindly, it only reads the exports.", true},
		{"We're going with Redis after all.", "Please don't show fines on the screen.", false},
		{"Show fines on the receipt.", "Please don't show fines on the screen.", false},                     // goes back on nothing
		{"Show fines after all, on the receipt.", "Never show the patron's address on the receipt.", false}, // another act
	} {
		got := slices.ContainsFunc(Removed(tc.newer), func(k string) bool { return Permits(k, tc.rule) })
		if got != tc.want {
			t.Errorf("%q permits what %q forbade: %v, want %v", tc.newer, tc.rule, got, tc.want)
		}
	}
}

// TestGoesBackOnly: only the sentence that goes back does an act, and
// "after all that" gives a reason, it goes back on nothing (the round of
// 13 January: "when the cutoff passes" took back "no passwords").
func TestGoesBackOnly(t *testing.T) {
	rule := "Customers sign in with a magic link emailed to the address on their account, no passwords — café staff would share one password on a sticky note anyway."
	newer := "Change of heart on emails. Customers keep ringing, so I do want an automatic confirmation email when the cutoff passes, listing what they'll get tomorrow."
	if slices.ContainsFunc(Removed(newer), func(k string) bool { return Permits(k, rule) }) {
		t.Errorf("%q permits what %q forbade", newer, rule)
	}
	if GoesBack("and after all that you'd be parsing free text") {
		t.Error(`"after all that" goes back`)
	}
}

// TestProper: a capitalised name after "instead of" or "replaces" is a
// named thing replaced; a name in a "from … to …", a possessive and a
// common noun are not.
func TestProper(t *testing.T) {
	for _, tc := range []struct {
		v    string
		text string
		want bool
	}{
		{"zustand store", "filters now live in the URL search params instead of the Zustand store.", true},
		{"mailapp", "Confirmations now post to Google Chat instead of MailApp.", true},
		{"usb", "power. 5V from USB to 3.3V. the C3 pulls ~350mA peaks on wifi TX.", false},
		{"geojson", "its polygon came as [lat, lon] pairs instead of GeoJSON's [lon, lat].", false},
		{"store", "filters now live in the URL search params instead of the store.", false},
	} {
		v := map[string]bool{}
		for _, w := range strings.Fields(tc.v) {
			v[lex.Key(w)] = true
		}
		if got := proper(v, tc.text); got != tc.want {
			t.Errorf("proper(%q, %q) = %v, want %v", tc.v, tc.text, got, tc.want)
		}
	}
}
