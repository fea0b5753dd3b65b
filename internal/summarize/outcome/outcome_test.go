package outcome

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestOutcomeLeadIn: a paragraph that only announces the next ones
// takes none of the outcome's places.
func TestOutcomeLeadIn(t *testing.T) {
	if got := Of("The comparator works.\n\nThe mismatches were a converter bug."); len(got) != 2 {
		t.Errorf("a short outcome taken for a lead-in: %q", got)
	}
	text := "Three fixes today.\n\nThe commas: the Java writer formats amounts with the node's locale.\n\n" +
		"BILL090 is converted and ties out with the mainframe.\n\nThe finance upload works as STEP030 with a 30-second connect timeout."
	got := Of(text)
	if len(got) != 3 || !strings.Contains(got[2], "STEP030") {
		t.Errorf("Of(%q) = %q", text, got)
	}
	// "Here's where this landed." and "Two reasons decide it for me."
	// announce; they take no outcome's place.
	text = "Here's where this landed.\n\nThe harness calls do_bench.\n\nTwo reasons decide it for me. Yjs has the editor binding.\n\nNumbers: 2.3x faster.\n\nWhile I was in the kernel I also added the RMSNorm path."
	got = Of(text)
	if len(got) != 4 || strings.Contains(got[0], "landed") || !strings.HasPrefix(got[1], "Yjs") || !strings.Contains(got[3], "RMSNorm") {
		t.Errorf("Of(%q) = %q", text, got)
	}
}

// TestOutcomeCourtesy: a reply to thanks says what it reports, and an
// offer of more says nothing done.
func TestOutcomeCourtesy(t *testing.T) {
	for in, want := range map[string]string{
		"You're welcome — tree is clean, three test classes, release v2.0.0 tagged.":                                                                                   "[Tree is clean, three test classes, release v2.0.0 tagged.]",
		"You're welcome — let me know how the long moves go on the real arm.":                                                                                          "[]",
		"You're welcome — ping me when you want the linux-builder looked at.":                                                                                          "[]",
		"You're welcome — ✅ all 42 tests pass on the branch.":                                                                                                          "[✅ all 42 tests pass on the branch.]",
		"Let me know if anything else breaks; the deploy itself is done and tagged v1.2.":                                                                              "[Let me know if anything else breaks; the deploy itself is done and tagged v1.2.]",
		"The cap is 100 now. For you: `cargo sqlx prepare`, `cargo nextest run`.":                                                                                      "[The cap is 100 now.]",
		"One thing worth saying about the choice itself, since you asked: the reason Jellyfin is the better fit here is that hardware transcoding needs no paid pass.": "[The reason Jellyfin is the better fit here is that hardware transcoding needs no paid pass.]",
	} {
		if got := fmt.Sprint(Of(in)); got != want {
			t.Errorf("Of(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestOutcomeLongSentences: a second long sentence of the first
// paragraph is an outcome of its own, not cut away with the 300
// characters.
func TestOutcomeLongSentences(t *testing.T) {
	text := "The build script is build/compile.sh (DRY=1 prints the cobc line without compiling). " +
		"It compiles with `-std=ibm` rather than the default dialect, because BILL040 depends on IBM's truncation of binary fields " +
		"(TRUNC(STD) on the mainframe); the default GnuCOBOL dialect keeps the full binary value and the totals would drift."
	got := Of(text)
	if len(got) != 2 || !strings.Contains(got[1], "-std=ibm") {
		t.Errorf("outcome = %q", got)
	}
}

// TestOutcomeListItems: each item of a list in the last message is an
// outcome, not only the first.
func TestOutcomeListItems(t *testing.T) {
	text := "Done on all three:\n\n- CSS: each section has its own file under src/css/, bundled into assets/app.css with Lightning CSS.\n" +
		"- Variant picker: assets/variant-picker.js defines a `<variant-picker>` custom element that wraps\n  the existing form.\n" +
		"- CLI: the team should be on Shopify CLI 3.61, noted in .tool-versions."
	got := Of(text)
	if len(got) != 3 || !strings.Contains(got[1], "wraps the existing form") || !strings.Contains(got[2], "3.61") {
		t.Errorf("outcome = %q", got)
	}
}

// TestOutcomeShortLead: a later paragraph whose first sentence is short
// says what it means in the second ("Mappings no longer come from the
// CSV. Codes are looked up with `ConceptMap/$translate` …").
func TestOutcomeShortLead(t *testing.T) {
	text := "The log leak is fixed: the parser logs at WARN now.\n\nMappings no longer come from the CSV. Codes are looked up with `ConceptMap/$translate` and cached in Caffeine for 10 minutes. Aylin can edit them.\n\nAuth: basic auth is replaced by a token from Keycloak, realm `clinical`, client `lab-bridge`. The password is gone."
	got := Of(text)
	want := []string{
		"The log leak is fixed: the parser logs at WARN now.",
		"Mappings no longer come from the CSV. Codes are looked up with `ConceptMap/$translate` and cached in Caffeine for 10 minutes.",
		"Auth: basic auth is replaced by a token from Keycloak, realm `clinical`, client `lab-bridge`.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("outcome = %q, want %q", got, want)
	}
}

// TestOutcomeNotAcknowledged: a later paragraph that opens by granting
// the user a point gives its outcome in the sentence after (blind AK).
func TestOutcomeNotAcknowledged(t *testing.T) {
	got := Of("The shift is the Y driver overheating, not a mechanical skip.\n\nI know this costs some quiet. X and Y go to spreadCycle at 0.8 A.")
	want := []string{"The shift is the Y driver overheating, not a mechanical skip.", "X and Y go to spreadCycle at 0.8 A."}
	if !slices.Equal(got, want) {
		t.Errorf("outcome = %q, want %q", got, want)
	}
}

// TestOutcomeNotNoneLeft: a check that the old is gone names only what no
// longer holds; the outcome is what holds now.
func TestOutcomeNotNoneLeft(t *testing.T) {
	got := Of("Everything is on axum 0.8 now. Nothing from axum 0.7, Rust 1.79 or Postgres 16 is left. The tests pass.")
	if len(got) != 1 || strings.Contains(got[0], "0.7") {
		t.Errorf("outcome = %q, want the state without the check", got)
	}
}

// TestOutcomeOneParagraph: a one-paragraph report of several things done
// gives a thing done past its first two sentences a bullet of its own
// (blind AE: "The archive table got its index …" was lost, and a newer
// session's open item on that table stayed).
func TestOutcomeOneParagraph(t *testing.T) {
	got := Of("Requirements now pin Django 5.1.3. A failed payment now puts the subscription in past_due. The archive table got its index in migration 0008, also concurrent. Sentry is initialised in prod.py.")
	if len(got) != 2 || !strings.HasPrefix(got[1], "The archive table got its index") {
		t.Errorf("outcome = %q", got)
	}
}

// TestOutcomeChangeReport: the agent reporting in the first person a
// change it made states what now holds; "I've" alone is the agent
// talking about its own steps.
func TestOutcomeChangeReport(t *testing.T) {
	text := "The loader now takes Net Units as they are.\n\nI've also set the markets the way the contracts read to me: UK is the home market, every other market is export, at the lower export rate."
	if got := Of(text); len(got) != 2 || !strings.Contains(got[1], "UK is the home market") {
		t.Errorf("Of(%q) = %q", text, got)
	}
	text = "The loader now takes Net Units as they are.\n\nI've looked at the other loaders and read through the contracts folder."
	if got := Of(text); len(got) != 1 {
		t.Errorf("Of(%q) = %q, want the narration left out", text, got)
	}
}

// TestOutcomeSkipsExplained: what an announcement introduces is a root
// cause with a line of its own, not the paragraph's outcome (blind AZ:
// the pack showed the cause twice, the second time only its fix under
// the cause's label).
func TestOutcomeSkipsExplained(t *testing.T) {
	text := "While replaying last week's form log I found what happened to Nether Edge: the double croissants weren't their mistake. On a slow phone connection the Save button was pressed again, and the second POST added a second set of rows.\n\nTests pass, three runs in a row."
	got := Of(text)
	if len(got) != 1 || got[0] != "Tests pass, three runs in a row." {
		t.Errorf("Of(%q) = %q", text, got)
	}
}
