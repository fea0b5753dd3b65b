package consolidate

import "testing"

func TestTitleMatch(t *testing.T) {
	tests := []struct {
		a, b  string
		match bool
	}{
		{"Use PostgreSQL for the job queue", "Use PostgreSQL for the job queue", true},
		{"Use PostgreSQL for the job queue", "Using PostgreSQL for job queues", true},
		{"Use PostgreSQL for the job queue", "Use Redis for the job queue", true},
		{"Retry with exponential backoff", "Retry queue uses PostgreSQL", false},
		{"Use table-driven tests", "Use golden files for tests", false},
		{"Go", "Go", true},
		{"Go", "Rust", false},
		{"", "x", false},
	}
	for _, tt := range tests {
		if got := titleMatch(titleWords(tt.a), titleWords(tt.b)) > 0; got != tt.match {
			t.Errorf("%q ~ %q = %v, want %v", tt.a, tt.b, got, tt.match)
		}
	}
}
