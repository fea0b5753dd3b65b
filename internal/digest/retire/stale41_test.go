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

// TestRetireTimeOfDay: a newer statement that gives what happens
// another time of day retires the older one (blind AZ); two things
// that only both run at a time are two.
func TestRetireTimeOfDay(t *testing.T) {
	for _, tc := range []struct {
		n, x string
		want bool
	}{
		{"With the shift starting at 20:00 the production sheet can't wait for 9pm any more: the cron job prints it at 19:00 now.", "Production sheet: it should print by itself at 21:00 on the office Brother.", true},
		{"Curtain up moved to 19:45, the half to 19:15; the restart lock is 19:15 to 22:45.", "The half is at 19:00 for 19:30 shows; the restart lock runs 19:00 to 22:30.", true},
		{"The report runs at 06:00 now.", "The backup runs at 02:00.", false},
		{"The deploy window opens at 09:00 now.", "Standup is at 09:30.", false},
	} {
		n, o := &digest.Summary{}, &digest.Summary{}
		n.Parts[digest.Outcome] = []string{tc.n}
		o.Parts[digest.Outcome] = []string{tc.x}
		r := New(nil, []*digest.Summary{n, o})
		if got := r.Retired(tc.x, 1); got != tc.want {
			t.Errorf("Retired(%q) after %q = %v, want %v", tc.x, tc.n, got, tc.want)
		}
	}
}

// TestChangeOfHeart: "Change of heart on emails." takes back the rules
// on emails, not the others (blind AZ).
func TestChangeOfHeart(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Request] = []string{"Change of heart on emails. Customers keep ringing to ask whether their change went through, so I do want an automatic confirmation email when the cutoff passes. Invoices still go through Anjali, that's different."}
	for x, want := range map[string]bool{
		"Please don't email anything to customers automatically.": true,
		"Please don't add npm dependencies without asking first.": false,
	} {
		o.Parts[digest.Preferences] = []string{x}
		r := New(nil, []*digest.Summary{n, o})
		if got := r.Retired(x, 1); got != want {
			t.Errorf("Retired(%q) = %v, want %v", x, got, want)
		}
	}
}

// TestDropPointsBackAfterRetired: a sentence whose object is what the
// retired sentence before it named goes with it; one that speaks of the
// subject stays.
func TestDropPointsBackAfterRetired(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Outcome] = []string{"The API now listens on port 9090 instead of 8080."}
	for x, want := range map[string]string{
		"The API listens on port 8080. Don't change it.":                      "",
		"The API listens on port 8080. It reads config/server.yaml at start.": "It reads config/server.yaml at start.",
	} {
		o.Parts[digest.Outcome] = []string{x}
		r := New(nil, []*digest.Summary{n, o})
		if got := r.DropRetired(x, 1); got != want {
			t.Errorf("DropRetired(%q) = %q, want %q", x, got, want)
		}
	}
}
