package retire

import "testing"

// TestFPCKept holds newer statements the context pack read as changing
// an older one they leave as it was, from its retirement false
// positives (second pass).
func TestFPCKept(t *testing.T) {
	tests := []struct{ older, newer string }{
		// What moved is the catalog; the clause that says so shares
		// nothing with the bars, the rest of the statement says the
		// files stay.
		{"The bars live under /mnt/research/bars/minute, one parquet file per symbol per year, zstd.",
			"The results catalog now lives in Postgres, schema `bt` on research-db.internal port 5433, tables `bt.runs` and `bt.folds`; all 312 earlier runs were copied across. The parquet files under /mnt/research/results stay where they are, only the catalog moved."},
		{"Stay away from k-fold cross-validation, purged or not",
			"The results catalog now lives in Postgres, schema `bt` on research-db.internal port 5433, tables `bt.runs` and `bt.folds`; all 312 earlier runs were copied across. The parquet files under /mnt/research/results stay where they are, only the catalog moved."},
		// A proposal now in a file is about walk-forward folds, not fills.
		{"Fills stay event-driven, in a small per-order loop that walks forward through the bars after each target change.",
			"Proposal, now in `btengine/walkforward.py`: rolling walk-forward folds with a 36-month training window and a 6-month test window, stepping forward six months at a time, and an embargo of 5 trading days between the end of training and the start of testing so that features with multi-day lookbacks can't straddle the boundary."},
	}
	for _, tt := range tests {
		if retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  retired by %q", tt.older, tt.newer)
		}
	}
}

// TestFPCStillRetired: what the narrowed rules must still retire.
func TestFPCStillRetired(t *testing.T) {
	tests := []struct{ older, newer string }{
		// The clause that announces the move names the catalog.
		{"The results catalog is a SQLite file next to the parquet files.",
			"The parquet files under /mnt/research/results stay where they are, only the catalog moved."},
		{"The toolchain pins Go 1.21.4 in go.mod and in the CI image.",
			"Bumped the toolchain: go.mod and the CI image pin Go 1.22.2."},
	}
	for _, tt := range tests {
		if !retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  not retired by %q", tt.older, tt.newer)
		}
	}
}
