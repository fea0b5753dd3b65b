package digest

import "testing"

// TestReview34SighNoChitChat: with "ugh", "hmm", "whoa" added to the
// chit-chat words, a short request that says what broke ("Ugh, prod is
// down.") counts as chit-chat and DropWaste drops it.
func TestReview34SighNoChitChat(t *testing.T) {
	for _, s := range []string{"Ugh, prod is down.", "Hmm, staging is down.", "Whoa, 502s.", "Ugh, CI again."} {
		if IsChitChat(s) {
			t.Errorf("IsChitChat(%q) = true, it tells what broke", s)
		}
	}
	d := &Summary{}
	d.Parts[Request] = []string{"Ugh, prod is down."}
	d.DropWaste()
	if len(d.Parts[Request]) != 1 {
		t.Errorf("DropWaste dropped the request %q", "Ugh, prod is down.")
	}
}
