package match

import "testing"

func TestSketchContainment(t *testing.T) {
	a := NewSketch("Maya moved to Rotterdam in October and bought a green bike")
	b := NewSketch("In October Maya moved to Rotterdam")
	c := NewSketch("Tom entered the Manchester marathon")
	if got := a.Containment(b); got < 0.99 {
		t.Errorf("a passage within another: containment %.2f, want 1", got)
	}
	if got := a.Containment(c); got > 0.3 {
		t.Errorf("unrelated texts: containment %.2f", got)
	}
	if got := b.Containment(a); got > 0.7 {
		t.Errorf("the shorter holds only part of the longer: containment %.2f", got)
	}
}
