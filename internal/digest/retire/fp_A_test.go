package retire

import "testing"

// TestFPAKept holds newer statements the context pack read as changing
// an older one they leave as it was, from its retirement false
// positives.
func TestFPAKept(t *testing.T) {
	tests := []struct{ older, newer string }{
		// A new version of one thing says nothing of a sentence that
		// names no version nor the thing, only the file it is written in.
		{"The KDP workbooks are read with openpyxl (added to pyproject.toml).",
			"Tallow-mini is on Python 3.12.7 now; the venv is rebuilt with uv on 3.12, and pyproject.toml requires 3.12."},
		// A tolerance in millimetres is no other travel.
		{"Machine is 1000 x 600 mm of travel with about 110 mm of Z.",
			"Under 0.02 mm after three hours is as good as this machine will measure, so that's settled."},
		// The old value "instead of the machine's 6000" is 6000, not the machine.
		{"Machine is 1000 x 600 mm of travel with about 110 mm of Z.",
			"That's the personal licence: since a couple of years ago Fusion's personal tier posts every rapid as a G1 at a capped feed instead of G0, so all the repositioning between pockets runs at 1000 mm/min instead of the machine's 6000."},
		// An alternative weighed and turned down changes nothing.
		{"One thing: keep every sheet name and column number in one place, src/config.ts. The Stock tab is one row per SKU, about 310 of them, shops in columns C to F.",
			"I thought about keeping the ledger in PropertiesService instead, but the property store is capped at 500 KB per script and 9 KB per value, and a year of refs would outgrow it, so the ledger is a sheet."},
	}
	for _, tt := range tests {
		if retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  retired by %q", tt.older, tt.newer)
		}
	}
}

// TestFPAStillRetired: what the narrowed rules must still retire.
func TestFPAStillRetired(t *testing.T) {
	tests := []struct{ older, newer string }{
		{"The venv runs on Python 3.11 from Homebrew.",
			"Tallow-mini is on Python 3.12.7 now; the venv is rebuilt with uv on 3.12, and pyproject.toml requires 3.12."},
	}
	for _, tt := range tests {
		if !retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  not retired by %q", tt.older, tt.newer)
		}
	}
}
