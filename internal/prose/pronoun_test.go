package prose

import "testing"

func TestSetIt(t *testing.T) {
	for _, c := range []struct{ s, prev, what, why string }{
		{"retry_after has to be larger than the longest job timeout; I set it to 300.", "", "Set retry_after to 300", "retry_after has to be larger than the longest job timeout"},
		{"I raised it to 45 seconds.", "The read timeout was too short for the first full sync.", "Raised read timeout to 45 seconds", "The read timeout was too short for the first full sync."},
		{"So we bumped it back to 3.", "The worker count defaults to 8 on this box.", "Bumped worker count back to 3", "The worker count defaults to 8 on this box."},
		{"I set it to 300.", "It was too low.", "", ""},
		{"I set up the tests.", "The suite needs a database.", "", ""},
		{"We set the limit to 5.", "The API has a quota.", "", ""},
	} {
		what, why, ok := SetIt(c.s, c.prev)
		if what != c.what || why != c.why || ok != (c.what != "") {
			t.Errorf("SetIt(%q, %q) = %q, %q, %v; want %q, %q", c.s, c.prev, what, why, ok, c.what, c.why)
		}
	}
}
