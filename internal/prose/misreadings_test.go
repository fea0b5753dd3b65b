package prose

import (
	"fmt"
	"testing"
)

// TestReviewPascalNotSetting: a PascalCase name before a number is a
// setting only when the name is a key ("MemorySize 1536"): a status
// code, a latency, a product's model or a language's version are none.
func TestPascalNotSetting(t *testing.T) {
	for in, want := range map[string]string{
		"CreateBooking runs with MemorySize 1536 in template.yaml": "map[memorysize:1536]", // the commit's own case
		"GetUser 200 OK, CreateBooking 502.":                       "map[]",
		"The unit pets systemd with WatchdogSec=30.":               "map[watchdogsec:30]",
		"ListSlots 40 ms at p99 after the change.":                 "map[]",
		"PlayStation 5 builds use the new SDK.":                    "map[]",
		"MacBook 2019 runners are the slow ones.":                  "map[]",
	} {
		if got := fmt.Sprint(Settings(in)); got != want {
			t.Errorf("Settings(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestReasonAsItIs: "as it is" closing a clause keeps a value unchanged
// and gives no reason (found trying cairn as a user); "as it is
// faster" does.
func TestReasonAsItIs(t *testing.T) {
	for s, want := range map[string]bool{
		"newServer now uses cfg.Timeout as it is; the test pins it at 15s.":                        false,
		"Leave the config as it is.":                                                               false,
		"We keep SQLite as it is already deployed everywhere.":                                     true,
		"Use the pool as it is, then tune it.":                                                     false,
		"It now takes Net Units and Net Value as they are and keeps Returns only for the reserve.": false,
		"We keep the cache as it is and the API as it was.":                                        false,
		"We keep SQLite as it is and always was our default.":                                      true,
	} {
		if got := ReasonAt(s) != nil; got != want {
			t.Errorf("ReasonAt(%q) found a reason: %v, want %v", s, got, want)
		}
	}
}
