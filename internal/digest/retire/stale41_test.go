package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestDropConsequence: what "so" says the retired values made so goes
// with them (blind AZ): "the apps can cache them for an hour" is the old
// max-age in other words.
func TestDropConsequence(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Outcome] = []string{"Feeds are now cached with max-age=300, and publishing purges the feed URL from Bunny."}
	x := "Feeds are served with Cache-Control public, max-age=3600, so Bunny and the apps can cache them for an hour."
	o.Parts[digest.Outcome] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	if got, want := r.DropRetired(x, 1), "Feeds are served with Cache-Control public."; got != want {
		t.Errorf("DropRetired(%q) = %q, want %q", x, got, want)
	}
}
