package prose

import (
	"slices"
	"testing"
)

func TestChange(t *testing.T) {
	for _, tc := range []struct {
		s      string
		change bool
		old    []string
	}{
		{"The worker now binds 9200 instead of 9100.", true, []string{"9100"}},
		{"Search state lives in the query string rather than the MobX store, so links can be shared.", true, []string{"mobx store"}},
		{"The cron job moved from 01:15 to 03:00 UTC", true, []string{"01:15"}},
		{"Bumped the linter from 1.55.2 to 1.57.0", true, []string{"1.55.2"}},
		{"billing no longer uses Stripe Checkout; we render our own form", true, []string{"stripe checkout"}},
		{"We turned the query cache off again, because it served stale prices", true, nil},
		{"Back to plain JSON logs after all", true, nil},
		{"The staging box is now at 10.0.4.7", true, nil},
		{"The worker binds 9200.", false, nil},
		{"We'll use sqlc for database access", false, nil},
	} {
		change, old := Change(tc.s)
		if change != tc.change || !slices.Equal(old, tc.old) {
			t.Errorf("Change(%q) = %t, %q; want %t, %q", tc.s, change, old, tc.change, tc.old)
		}
	}
}
