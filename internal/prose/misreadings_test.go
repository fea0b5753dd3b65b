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

// TestRound11Claims: the second review of 11 December. What a server
// serves is no thing owning a port; "apart from" is "except"; "The
// .nvmrc" is the file.
func TestRound11Claims(t *testing.T) {
	for in, want := range map[string]string{
		"Set pool_size=10 apart from the importer.": "map[poolsize:10]",
		"MAX_WORKERS=8 apart from CI.":              "map[maxworkers:8]",
	} {
		if got := fmt.Sprint(Settings(in)); got != want {
			t.Errorf("Settings(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"The API serves requests on port 8080.":     "api port",
		"The gateway exposes metrics on port 9100.": "gateway port",
		"The .nvmrc says 20.15.1.":                  ".nvmrc content",
		"The `.python-version` is 3.12.4 now.":      ".python-version content",
	} {
		if got := FactClaim(in).Subject; got != want {
			t.Errorf("FactClaim(%q).Subject = %q, want %q", in, got, want)
		}
	}
}
