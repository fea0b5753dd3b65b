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

// TestVerbAfterSubject: a subject that goes on to its verb is a
// statement; one that goes on to a phrase, a comma or nothing names a
// thing.
func TestVerbAfterSubject(t *testing.T) {
	for s, want := range map[string]bool{
		"the API returns 404 for unknown slots":        true,
		"the tests pass on all three platforms":        true,
		"the old parser handles both":                  true,
		"the X-Ray patching in both handlers":          false,
		"a build to see how it behaves":                false,
		"the flag rename with a deprecated alias":      false,
		"the Stripe webhooks in handler.go":            false,
		"the controller, stripped down":                false,
		"how the model session is created":             false,
		"the C side: GUCs, shmem request and the hook": false,
	} {
		if got := VerbAfterSubject(s); got != want {
			t.Errorf("VerbAfterSubject(%q) = %v, want %v", s, got, want)
		}
	}
}
