package change

import "testing"

// TestFPCHabitual: a participle that tells what happens each time is no
// change made.
func TestFPCHabitual(t *testing.T) {
	for _, s := range []string{
		"Since the live updates, when a card gets swapped by SSE while someone has the cancel confirmation open on it, the dialog just vanishes under their thumb.",
		"The 409 case is handled: `static/app.js` sets `htmx.config.responseHandling` so a 409 is swapped like a 2xx, and the card turns into its Full state.",
	} {
		if c := Of(s); c != nil {
			t.Errorf("Of(%q) = %+v, want no change", s, c)
		}
	}
	for _, s := range []string{
		"The port got changed to 8080 last night.",
		"Rounding.kt is replaced by ExactMinutes.kt.",
	} {
		if Of(s) == nil {
			t.Errorf("Of(%q) = nil, want a change", s)
		}
	}
}

// TestFPCNamesSpelled: a statement names a new value written with a dot.
func TestFPCNamesSpelled(t *testing.T) {
	c := Of("The remote template tpl-remote now offers `g722,alaw`, which costs about a fortieth of the CPU per leg.")
	if c == nil {
		t.Fatal("no change")
	}
	x := TopicKeys("The trunk: Voxtera only speaks G.711 A-law, so calls to the outside are transcoded G.722↔alaw on pbx01.")
	if c.Says(x, nil, false) {
		t.Errorf("%+v says %v changed; it names the new value G.722", c, x)
	}
	if !c.Says(TopicKeys("The trunk speaks G.711 A-law only."), nil, false) {
		t.Errorf("%+v does not say the trunk changed", c)
	}
}

// TestFPCFallBack: what a tool falls back to when something is missing
// is no return to an old value.
func TestFPCFallBack(t *testing.T) {
	s := "The font: Source Serif 4 is installed on your laptop (from Adobe Fonts) but not on tallow-mini, and Typst, when a font is missing, only warns and falls back to Libertinus Serif."
	if c := Of(s); c != nil {
		t.Errorf("Of(%q) = %+v, want no change", s, c)
	}
	if Of("We went back to Libertinus Serif for the statements.") == nil {
		t.Error("going back to a value is a change")
	}
}
