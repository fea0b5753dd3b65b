package change

import "testing"

func TestWorksFor(t *testing.T) {
	for _, tc := range []struct {
		x, n string
		want bool
	}{
		{"The spider never follows pagination, it reads page 1 of the category and stops.", "Pagination works: shopfront follows the a[rel=next] link from every category page.", true},
		{"The spider follows pagination on every page.", "Pagination works: shopfront follows the next link.", false}, // no problem stated
		{"The login form never shows the throttle message.", "Pagination works: shopfront follows the next link.", false},
		{"Exports fail on files over 5 GB.", "The retry is fixed. Uploads work now for small files.", false},
	} {
		got := Problem(tc.x) && WorksFor(Keys(tc.x), Works(tc.n))
		if got != tc.want {
			t.Errorf("%q after %q: %v, want %v", tc.x, tc.n, got, tc.want)
		}
	}
}
