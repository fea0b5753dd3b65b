package when

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"2025-03-09", "2025-03-09 00:00"},
		{"2025-03-09 19:45", "2025-03-09 19:45"},
		{"2025-03-09T19:45:00+01:00", "2025-03-09 18:45"},
		{"March 9, 2025", "2025-03-09 00:00"},
		{"9th Mar 2025 at 7:05 am", "2025-03-09 07:05"},
		{"12:30 am on 1 January, 2024", "2024-01-01 00:30"},
		{"2025-02-30", ""},
		{"no date", ""},
	}
	for _, tt := range tests {
		got := Parse(tt.in)
		s := ""
		if !got.IsZero() {
			s = got.Format("2006-01-02 15:04")
		}
		if s != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, s, tt.want)
		}
		if !got.IsZero() && got.Location() != time.UTC {
			t.Errorf("Parse(%q) not in UTC", tt.in)
		}
	}
}
