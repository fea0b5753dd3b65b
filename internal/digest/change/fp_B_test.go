package change

import "testing"

// TestBackOnLineIsNoChange: power or a link come back on line goes back
// to no value; read as "back on" a value, "line cancels" was the new one.
func TestBackOnLineIsNoChange(t *testing.T) {
	for _, s := range []string{
		"With your rule, upssched starts a timer on ONBATT, and after 5 minutes on battery both machines shut down; coming back on line cancels it.",
		"Once the link is back on-line the queue drains.",
	} {
		if c := Of(s); c != nil {
			t.Errorf("Of(%q) = %+v, want nil", s, c)
		}
	}
	if Of("The API is back on 8080.") == nil {
		t.Error("back on a port is a change")
	}
}

// TestOnly: the thing a sentence says alone changed.
func TestOnly(t *testing.T) {
	got := Only("The parquet files under /mnt/research/results stay where they are, only the catalog moved.")
	if len(got) != 1 || !got["catalog"] {
		t.Errorf("Only = %v, want catalog", got)
	}
	if got := Only("Only the admins can change the schedule."); got != nil {
		t.Errorf("Only of no change = %v", got)
	}
}

// TestRouteIsNoChange: data sent from one place to another changes
// neither place.
func TestRouteIsNoChange(t *testing.T) {
	for _, s := range []string{
		"The plan was a sync job that pulls from pbs01 to the second PBS at Herr Hofer's house, pbs-home, over WireGuard (10.99.0.2).",
		"restic copies from the snapshot to B2 every night.",
	} {
		if c := Of(s); c != nil {
			t.Errorf("Of(%q) = %+v, want nil", s, c)
		}
	}
	if Of("The sync job moved from pbs01 to pbs02.") == nil {
		t.Error("a job moved from one host to another is a change")
	}
	if Of("We went from 3 replicas to 2.") == nil {
		t.Error("a count from one value to another is a change")
	}
}

// TestNoLongerVerbAny: what "no longer shows any" takes out is what
// follows the verb.
func TestNoLongerVerbAny(t *testing.T) {
	c := Of("The screen no longer shows any amount: when the 64 patron information response has a BV fee amount above zero, the patron sees \"Please see staff\" and nothing else (Screen.ShowFines is false in appsettings.json).")
	if c == nil || len(c.Old) != 1 || !c.Old[0]["amount"] || c.Old[0]["show"] {
		t.Errorf("Of = %+v, want the amount old", c)
	}
	if c := Of("The API no longer uses Redis."); c == nil || len(c.Old) == 0 || !c.Old[0]["redi"] {
		t.Errorf("Of = %+v, want Redis old", c)
	}
}
