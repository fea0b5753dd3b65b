package choice

import "testing"

// TestChoice: what each reader takes and leaves (their cases from blind
// AT and from the review of the round of 28 December).
func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		s                     string
		after, label, instead bool
	}{
		{"Since the ETA has no year, I take the next occurrence from now.", true, false, false},
		{"Since the last deploy, we use about 2 GB more memory per pod.", false, false, false},
		{"As you can see in the trace, we read the whole file into memory before parsing.", false, false, false},
		{"Storage: positions go into hourly Parquet files, /data/ais/positions/YYYY/MM/DD/HH.parquet.", false, true, false},
		{"Performance: the query takes 4.2 s on the 10M-row table.", false, false, false},
		{"The catch: the trigger has to exist first, and `labeld_ro` can't create triggers.", false, false, false},
		{"Instead every missing clock-out lands on an exceptions report for the supervisor.", false, false, true},
		{"Instead, the job hangs at 99% and never exits.", false, false, false},
		{"Instead of polling, we subscribe.", false, false, false},
	} {
		_, label := UnderLabel(tc.s)
		if got := AfterReason(tc.s); got != tc.after {
			t.Errorf("AfterReason(%q) = %v", tc.s, got)
		}
		if label != tc.label {
			t.Errorf("UnderLabel(%q) = %v", tc.s, label)
		}
		if got := Instead(tc.s) != ""; got != tc.instead {
			t.Errorf("Instead(%q) = %v", tc.s, got)
		}
	}
}
