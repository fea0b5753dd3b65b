package prose

import (
	"slices"
	"testing"
)

func TestFullClauses(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"The backend runs on 5000, and the target is iOS 16.", []string{"The backend runs on 5000", "the target is iOS 16."}},
		{"Dev store is leaf-dev.myshopify.com, I have Shopify CLI 3.58 installed.", []string{"Dev store is leaf-dev.myshopify.com", "I have Shopify CLI 3.58 installed."}},
		{"Inputs land in /data/in and the CSVs should go to /data/out.", []string{"Inputs land in /data/in", "the CSVs should go to /data/out."}},
		{"I like salt and the pepper.", []string{"I like salt and the pepper."}},
		{"Feeds are served with max-age=3600, so Bunny and the apps can cache them for an hour.", []string{"Feeds are served with max-age=3600, so Bunny and the apps can cache them for an hour."}}, // one subject of two names
		// An aside between dashes before the predicate is no clause's end.
		{"Feeds were sent with max-age=3600, so Bunny — and apps behind it — kept serving the old feed for an hour.", []string{"Feeds were sent with max-age=3600, so Bunny — and apps behind it — kept serving the old feed for an hour."}},
		{"The token is in 1Password, vault infra-prod, and every command reads it.", []string{"The token is in 1Password, vault infra-prod", "every command reads it."}},
		{"For the pool: go to 20 with a 3 s acquire timeout, I'd rather fail fast with a 503 than queue for 30 s.", []string{"For the pool: go to 20 with a 3 s acquire timeout", "I'd rather fail fast with a 503 than queue for 30 s."}},
		{"Amounts use checked math; and please don't run `anchor deploy` yourself.", []string{"Amounts use checked math", "please don't run `anchor deploy` yourself."}},
		{"Run `a, the b` first.", []string{"Run `a, the b` first."}},
		{"Types come from vite-plugin-dts; I built it on Node 20.11.1.", []string{"Types come from vite-plugin-dts", "I built it on Node 20.11.1."}}, // a past not in -ed
		{"Types come from vite-plugin-dts; the set of types is small.", []string{"Types come from vite-plugin-dts", "the set of types is small."}},
	} {
		if got := FullClauses(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("FullClauses(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
