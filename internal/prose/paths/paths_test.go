package paths

import "testing"

func TestMovedURL(t *testing.T) {
	for _, tc := range []struct {
		x, n string
		want bool
	}{
		{"The charts go to oci://ghcr.io/orbital-io/charts.", "Charts go to oci://harbor.orbital.internal/charts now.", true},
		{"The charts go to oci://ghcr.io/orbital-io/charts.", "Charts go to oci://ghcr.io/orbital-io/charts and oci://harbor.orbital.internal/charts.", false},
		{"The charts go to oci://ghcr.io/orbital-io/charts.", "Images go to oci://harbor.orbital.internal/images.", false},
		{"The charts go to oci://ghcr.io/orbital-io/charts.", "Docs are at https://harbor.orbital.internal/charts.", false},
	} {
		if got := MovedURL(tc.x, tc.n); got != tc.want {
			t.Errorf("MovedURL(%q, %q) = %v", tc.x, tc.n, got)
		}
	}
}
