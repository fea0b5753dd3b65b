package recall

import (
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestReview34RuleNotRestated: an older session's rule ("never restart
// hvacwatch.service during school hours") is left out of the pack as
// Restated because a newer outcome about a relay test names the same
// unit and time (with 18:00 in the outcome the rule is shown).
func TestReview34RuleNotRestated(t *testing.T) {
	m, _ := newTestMemory(t)
	newest := sess("c3", map[int][]string{
		digest.Request: {"Move the nightly reload of the zone schedules."},
		digest.Outcome: {"The 17:00 relay test restarted `hvacwatch.service` twice and passed."},
	})
	older := sess("a1", map[int][]string{
		digest.Request:     {"Set up the alarm relay for the zone controllers."},
		digest.Outcome:     {"Zone alarms go to the secretaries' phones over the SMS gateway."},
		digest.Preferences: {"Never restart `hvacwatch.service` during school hours, only after 17:00."},
	})
	text := sessionsPack(m, newest, older)
	if !strings.Contains(text, "during school hours") {
		t.Errorf("the rule is lost from the pack:\n%s", text)
	}
}
