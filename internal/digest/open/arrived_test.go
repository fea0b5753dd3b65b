package open

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestArrivedLater: a to-do that waits for someone to send a thing is
// closed once a newer session says the thing came; not by a coming put
// off or denied, nor by another thing that came. A thing named in code
// ("HOMEBREW_TAP_TOKEN isn't set") is in once a report names one part
// of it alone ("token's in").
func TestArrivedLater(t *testing.T) {
	referees := "He's sending me his list of 48 referees with birth years and grades next week."
	token := "One thing from CI: the release run's `publish-homebrew-formula` job fails with \"Bad credentials\" because `HOMEBREW_TAP_TOKEN` isn't set in the repo secrets."
	for _, tc := range []struct {
		todo, later string
		want        bool
	}{
		{referees, "And Rob's list came, it's in data/referees.csv.", true},
		{referees, "Once the referees' list arrives we import it.", false},
		{referees, "The referees' list hasn't come yet.", false},
		{referees, "The new goal nets came on Tuesday.", false},
		{"The referees will play on the new pitch next week.", "And Rob's list came, it's in data/referees.csv.", false},
		{token, "token's in, v0.4.0 is out on all three, brew install works.", true},
		{token, "The deploy token's in, the staging job runs.", false},
	} {
		older := summary(map[int][]string{digest.Outcome: {"The schedule draft is in."}}, tc.todo)
		newer := summary(map[int][]string{digest.Request: {tc.later}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := v.ClosedLater(tc.todo, v.Distinct(tc.todo), sums, 1); got != tc.want {
			t.Errorf("%q after %q: closed = %v, want %v", tc.todo, tc.later, got, tc.want)
		}
	}
}
