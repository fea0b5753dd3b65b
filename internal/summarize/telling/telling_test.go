package telling

import "testing"

func TestTelling(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(string) bool
		s    string
		want bool
	}{
		{"StepAhead", StepAhead, "Installing libxcb-cursor0 on the runner and bundling it.", true},
		{"StepAhead", StepAhead, "Replacing moment with date-fns to cut the bundle size.", false}, // a purpose: a choice
		{"ReportOnly", ReportOnly, "I ran the integration test 10 times: 9 green.", true},
		{"ReportOnly", ReportOnly, "We tried SQLite first, but we'll use Postgres.", false},
		{"OnlyRunLog", OnlyRunLog, "It ran from 05:58 to 06:14 into logs/create-booking-2026-11-02.log.", true},
		{"OnlyClockPast", OnlyClockPast, "With more environments running in parallel at 06:00 it was only a matter of time.", true},
		{"OnlyClockPast", OnlyClockPast, "The API was on port 8080.", false},
		{"Wish", Wish.MatchString, "Luck with the k6 run tomorrow.", true},
		{"Ack", Ack.MatchString, "Understood for next time.", true},
		{"AsItIs", AsItIs.MatchString, "Now the repository — as it is.", true},
	} {
		if got := tc.f(tc.s); got != tc.want {
			t.Errorf("%s(%q) = %v, want %v", tc.name, tc.s, got, tc.want)
		}
	}
	if i := ReasonAt("We keep linear backoff because the queue is small."); i < 0 {
		t.Errorf("ReasonAt found no reason")
	}
	if i := ReasonAt("We decided to keep linear backoff."); i >= 0 {
		t.Errorf("ReasonAt took \"decided to\" for a purpose: %d", i)
	}
}
