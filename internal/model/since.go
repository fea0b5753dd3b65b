package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a time given to --since and --until: a date
// (2026-11-30, midnight UTC), an RFC 3339 time, or an age before now
// such as 36h, 7d or 2w.
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := ParseTimestamp(s); err == nil {
		return t, nil
	}
	if n := len(s); n > 1 {
		unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[n-1]]
		if unit > 0 {
			if v, err := strconv.ParseFloat(s[:n-1], 64); err == nil && v >= 0 && v < 1e5 {
				return now.Add(-time.Duration(v * float64(unit))), nil
			}
		}
		if d, err := time.ParseDuration(s); err == nil && d >= 0 {
			return now.Add(-d), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q: want a date (2026-11-30), an RFC 3339 time or an age (36h, 7d, 2w)", s)
}
