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
