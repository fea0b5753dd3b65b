package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// What a newer session quotes as no longer true is retired whatever its
// wording, in an older session's bullet or a core item's title, whole;
// not in the session that quoted it or a newer one.
func TestSaidUntrue(t *testing.T) {
	const monday = "Deploys go out every Monday, and the changelog is mailed to the team."
	newest := digest.Parse("## Segment 1\n\n**Decisions**\n- " + monday + "\n")                                           // rank 0: said again after
	quoting := digest.Parse("## Segment 1\n\n**Decisions**\n- Friday deploys.\n\n**No longer true**\n- " + monday + "\n") // rank 1
	older := digest.Parse("## Segment 1\n\n**Environment**\n- " + monday + "\n- The report runs at six.\n")               // rank 2
	r := New([]Statement{{Text: "Deploys go out every Monday, and the changelog is mailed to the team", Rank: 2}}, []*digest.Summary{newest, quoting, older})
	if got := r.DropRetired(monday, 2); got != "" {
		t.Errorf("the older session's bullet: %q", got)
	}
	if got := r.DropRetired(monday+" The report runs at six.", 2); got != "The report runs at six." {
		t.Errorf("a bullet of which one sentence was quoted: %q", got)
	}
	if !r.Retired("Deploys go out every Monday, and the changelog is mailed to the team", 2) {
		t.Error("the core item's title is not retired")
	}
	if got := r.DropRetired(monday, 0); got != monday {
		t.Errorf("said again by a newer session: %q", got)
	}
	if got := r.DropRetired("The report runs at six.", 2); got != "The report runs at six." {
		t.Errorf("what was not quoted: %q", got)
	}

	// A later segment of the quoting session says again what still holds
	// of what it quoted, as the prompt asks: it stays, and so does the
	// core item that session made of it.
	const still = "The changelog is mailed to the team every week."
	two := digest.Parse("## Segment 1\n\n**No longer true**\n- Deploys go out every Monday. " + still + "\n\n## Segment 2\n\n**Decisions**\n- " + still + "\n")
	old := digest.Parse("## Segment 1\n\n**Environment**\n- Deploys go out every Monday. " + still + "\n")
	r = New([]Statement{{Text: "The changelog is mailed to the team every week", Rank: 0}}, []*digest.Summary{two, old})
	if got := r.DropRetired(still, 0); got != still {
		t.Errorf("what the quoting session said again: %q", got)
	}
	if r.Retired("The changelog is mailed to the team every week", 0) {
		t.Error("the quoting session's core item is retired")
	}
	if got := r.DropRetired("Deploys go out every Monday. "+still, 1); got != "" {
		t.Errorf("the older session's bullet: %q", got)
	}
}
