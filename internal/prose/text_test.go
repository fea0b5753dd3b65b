package prose

import (
	"strings"
	"testing"
)

// TestLineAfterName: a lower-case word that starts sentences starts one
// after a file name, which afterWord does not count as a word.
func TestLineAfterName(t *testing.T) {
	got := Line("Connect fails, log is in logs/connect-deploy.log. we deploy with rsconnect. see main.go. run it")
	want := []string{"Connect fails, log is in logs/connect-deploy.log.", "we deploy with rsconnect.", "see main.go. run it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Line = %q, want %q", got, want)
	}
}
