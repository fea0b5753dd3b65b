package change

import (
	"slices"
	"testing"
)

// TestFPCMarkedClauses: the clauses that announce a statement's change.
func TestFPCMarkedClauses(t *testing.T) {
	tests := []struct {
		s    string
		want []string
	}{
		{"The parquet files under /mnt/research/results stay where they are, only the catalog moved.",
			[]string{"the catalog moved"}},
		{"Bumped the toolchain: go.mod and the CI image pin Go 1.22.2.",
			[]string{"Bumped the toolchain"}},
		// A comma alone goes on with a list.
		{"Shares are now struct 35, cryoem 30 in `scripts/accounts.sh`; re-run it on the head node.",
			[]string{"Shares are now struct 35, cryoem 30 in `scripts/accounts.sh`"}},
	}
	for _, tt := range tests {
		if got := MarkedClauses(tt.s); !slices.Equal(got, tt.want) {
			t.Errorf("MarkedClauses(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}
