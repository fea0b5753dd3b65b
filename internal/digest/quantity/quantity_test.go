package quantity

import (
	"slices"
	"testing"
)

func TestQuantities(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Quantity
	}{
		{"Keeps 7 daily and 4 weekly snapshots (`--keep-daily 7`).", []Quantity{{"dail", "7", false}, {"weekl", "4", false}}},
		{"Devices under 3 GB now run at 30 fps", []Quantity{{"gb/", "3", true}, {"fps", "30", false}}}, // a size of nothing named: bare
		{"keeps 14 dailies plus the 4 weeklies", []Quantity{{"dail", "14", false}, {"weekl", "4", false}}},
		// Snapshots kept per hour or month are counts, not times.
		{"tank/enc/home keeps 36 hourlies, 30 dailies and 12 monthlies", []Quantity{{"hourl", "36", false}, {"dail", "30", false}, {"monthl", "12", false}}},
		{"It now pages through bundles 200 at a time.", []Quantity{{"at once", "200", false}}}, // how many together, not bundles
		{"With 500-bundle pages the dry run covered all 40112 bundles in 81 pages.", []Quantity{{"bundl", "500", false}, {"bundl", "40112", false}}},
		{"The alert fires above 5% errors; the 2 % one pages.", []Quantity{{"%", "5", true}, {"%", "2", true}}},
		{"The okhttp read timeout is 20 seconds.", nil},
		{"customers with 200,000 reports", []Quantity{{"report", "200000", false}}},
		{"it's 25 minutes of warehouse time; a 13 hour countdown; the window is 30 minutes", []Quantity{{"minut/warehou", "25", true}, {"hour/countdo", "13", true}}},
		{"the old code got it wrong by 200 bytes", nil},
		{"cut the 2026-03-09 release tarballs; 5-10 workers", nil},
		{"one global buffer of 64K entries; now 256k entries, 1.5M rows", []Quantity{{"entr", "64000", false}, {"entr", "256000", false}, {"row", "1500000", false}}},
		{"a 10m timeout, 64 KB pages", nil},
		{"holds 1,000,000 rows, then 3,000,000 rows", []Quantity{{"row", "1000000", false}, {"row", "3000000", false}}},
		{"runs 1 pod, then 3 pods", []Quantity{{"pod", "1", false}, {"pod", "3", false}}},
		{"a 2048-bit key for 8-bit bodies; the key is 4096-bit", []Quantity{{"bit/key", "2048", false}, {"bit/bodies", "8", false}, {"bit", "4096", false}}},
		{"Runs on 192.168.1.20:8081, v1.70.0, at 02:30 on Dec 3.", nil},
		{"Only 120 of the ~300 head queries have judgements.", []Quantity{{"head", "120", false}, {"quer", "120", false}}},
		{"4 weekly snapshots (`--keep-daily 7 --keep-weekly 4`)", []Quantity{{"weekl", "4", false}, {"dail", "7", false}}},
		{"`--port 8080 --timeout-seconds 30`", []Quantity{{"port", "8080", false}}},
		{"3 of 10 minutes passed; 2 of them failed", []Quantity{{"minut/pass", "10", true}}},
		{"CI runs the suite in four shards, one per runner", []Quantity{{"shard", "4", false}}},
		{"two minutes; six of them; ten seconds", nil},
		{"simulation at 30 ticks per second; the server steps at 60 Hz", []Quantity{{"hz", "30", false}, {"tick", "30", false}, {"hz", "60", false}}},
		{"350 ms p95 at 150/s; the target is now 300 checkouts per second", []Quantity{{"hz", "150", false}, {"hz", "300", false}, {"checkou", "300", false}}},
		{"The sensor loop samples 100 readings a second.", []Quantity{{"hz", "100", false}, {"read", "100", false}}},
		{"The reminders queue runs 3 at a time; the importer runs 4 in parallel.", []Quantity{{"at once", "3", false}, {"at once", "4", false}}},
		{"It checks once a day; backups run twice per week.", []Quantity{{"times", "1/day", true}, {"times", "2/week", true}}},
		{"Checked once, then once more.", nil},
		{"The budget is €150 a month; the VM costs 40 EUR.", []Quantity{{"money/month", "150", true}, {"money", "40", true}}},
		{"I pinned the fork at block 19,850,000 in setUp, the API is on port 8080 and order 10482 was refunded twice.", []Quantity{{"block", "19850000", false}}},
		{"The CI runner has 4 slots for parallel jobs.", []Quantity{{"slot", "4", false}}}, // a count, no position
		{"The uplink is 10 GbE.", nil},
		{"on below 8°C, off above 10 °C", []Quantity{{"degc", "8", true}, {"degc", "10", true}}},
		{"two-pass loudnorm to -23 LUFS, true peak -1.5 dB; -j 4 workers; a -5 s offset", []Quantity{{"luf", "-23", false}, {"db", "-1.5", false}, {"worker", "4", false}}},
		{"`maxRetries = 3`, MAX_WORKERS=8; up to 5 retries", []Quantity{{"retr", "3", false}, {"worker", "8", false}, {"retr", "5", false}}},
	} {
		if got := Of(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Of(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestOtherBareSize: a size with nothing named after it meets the size of
// what the other statement names, when the statement holding the bare
// size names it too; two bare sizes never meet.
func TestOtherBareSize(t *testing.T) {
	keys := func(ws ...string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			m[w] = true
		}
		return m
	}
	old := "four NVMe OSDs per node, 128 GB RAM each"
	for _, tc := range []struct {
		now  string
		keys map[string]bool
		want string
	}{
		{"The RAM upgrade came too, all three nodes have 256 GB now.", keys("ram", "upgrad", "node"), "gb/ram"},
		{"The disks came too, all three nodes have 960 GB now.", keys("disk", "node"), ""}, // names no RAM
		{"The RAM upgrade came too, all three nodes have 128 GB now.", keys("ram", "upgrad", "node"), ""},
	} {
		u, _ := Other(Of(old), Of(tc.now), nil, tc.keys)
		if u != tc.want {
			t.Errorf("Other(%q, %q) = %q, want %q", old, tc.now, u, tc.want)
		}
	}
	thumb := "when a 4000 px photo goes down to the 256 px long edge"
	if u, _ := Other(Of(thumb), Of("The default long edge is 320 px now."), nil, keys("default", "long", "edge")); u != "px/long" {
		t.Errorf("Other(%q, the long edge is 320 px now) = %q, want px/long", thumb, u)
	}
	if u, _ := Other(Of("the cache holds 2 GB"), Of("the cache holds 4 GB now"), nil, keys("cache")); u != "" {
		t.Errorf("two bare sizes met as %q", u)
	}
}
