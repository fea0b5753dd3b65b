package digest

import "testing"

// "**No longer true**" quotes statements of older sessions: they go to
// Untrue, never to a part the pack shows.
func TestParseUntrue(t *testing.T) {
	d := Parse("## Segment 1\n\n**Decisions**\n- Deploys go out on Fridays.\n\n**No longer true**\n- Deploys go out every\n  Monday.\n- The API listens on 8080. Staging listens on 8081 too.\n\n**Files changed** (1)\n- deploy.yml\n")
	want := []string{"Deploys go out every Monday.", "The API listens on 8080. Staging listens on 8081 too."}
	if len(d.Untrue) != 2 || d.Untrue[0] != want[0] || d.Untrue[1] != want[1] {
		t.Errorf("Untrue = %q, want %q", d.Untrue, want)
	}
	for p, bullets := range d.Parts {
		for _, b := range bullets {
			if b == want[0] || b == want[1] {
				t.Errorf("%q is in part %s", b, Labels[p])
			}
		}
	}
	if len(d.Parts[Files]) != 1 || len(d.Parts[Decisions]) != 1 {
		t.Errorf("parts: %q", d.Parts)
	}

	newer := &Summary{Untrue: []string{"The API listens on 8080. Staging listens on 8081 too. Staging too."}}
	newest := &Summary{Untrue: []string{"deploys go out  every monday"}}
	u := Untrue([]*Summary{newest, newer, d})
	for _, c := range []struct {
		s    string
		want int
		ok   bool
	}{
		{"Deploys go out every Monday.", 0, true},
		{"the api listens on 8080. staging listens on 8081 too. staging too", 1, true},
		{"Staging listens on 8081 too.", 1, true}, // a sentence of a quote of several
		{"Staging too.", 0, false},                // a sentence of a quote, too short to go alone
		{"Deploys go out on Fridays.", 0, false},
		{"The API listens on", 0, false},          // four words: no beginning of a quote
		{"The API listens on 8080", 1, true},      // as quoted, without its stop
		{"Deploys go out every Monday…", 0, true}, // shortened by the pack
		{"The API listens on 80", 0, false},       // not to a word's end
	} {
		if k, ok := u.At(c.s); ok != c.ok || k != c.want {
			t.Errorf("Untrue[%q] = %d, %t; want %d, %t", c.s, k, ok, c.want, c.ok)
		}
	}

	// A quote written by hand without its dash is a quote, not a note.
	d = Parse("## Segment 3\n\n**No longer true**\nDeploys go out every Monday.\n")
	if len(d.Untrue) != 1 || len(d.Parts[Notes]) != 0 {
		t.Errorf("a plain line under the label: untrue %q, notes %q", d.Untrue, d.Parts[Notes])
	}
}
