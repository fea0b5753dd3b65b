package prose

import "testing"

func TestNamesIdent(t *testing.T) {
	if !NamesIdent("the controller_manager runs at 500 Hz", "The controller_manager now runs at 1000 Hz") {
		t.Error("one identifier in both is not named")
	}
	if NamesIdent("The state_publisher publishes at 30 Hz.", "The joint_state_publisher now publishes at 100 Hz.") {
		t.Error("an identifier inside a longer one counts as the same")
	}
}
