package change

import (
	"maps"
	"testing"
)

func TestTools(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want map[string]string
	}{
		{"Use Maven for the build, the team knows it.", map[string]string{"build": "maven"}},
		{"Actually, let's build the Java side with Gradle.", map[string]string{"build": "gradle"}},
		{"The Java rewrite now builds with Gradle (build.gradle.kts).", map[string]string{"build": "gradle"}},
		{"Let's write plain CSS per section and bundle it with Lightning CSS.", map[string]string{"bundle": "lightning"}},
		{"We picked Vitest for our unit tests.", map[string]string{"test": "vitest"}},
		{"Deploys go out through `argocd` now.", nil}, // "deploys go out": no job before the tool
		{"The team deploys with Helm.", map[string]string{"deploy": "helm"}},
		{"Talk to the merchant with Slack.", nil},
		{"Build the image for staging.", nil},
		{"We should set up a Cachix cache called acme-dev and have CI push to it.", map[string]string{"cache": "cachix"}},
		{"I want the cache off the SaaS — use our own Attic server at https://nixcache.acme.internal.", map[string]string{"cache": "attic"}},
		{"The cache was slow, so I looked at the logs.", nil},
		{"Put the cache behind the proxy and use Nginx in front now.", nil},
	} {
		if got := Tools(tc.s); !maps.Equal(got, tc.want) {
			t.Errorf("Tools(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestOtherTool(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"Use Maven for the build, the team knows it.", "Actually, let's build the Java side with Gradle.", true},
		{"Use Maven for the build, the team knows it.", "We build with Gradle now, not Maven: the CI templates are Gradle.", false}, // it names the old one: the change itself
		{"The team deploys with Helm.", "The team deploys with Helm, from the release branch.", false},
		{"The team deploys with Helm.", "Tests run with Vitest.", false},
	} {
		if got := OtherTool(Tools(tc.older), Tools(tc.newer), tc.newer); got != tc.want {
			t.Errorf("OtherTool(%q, %q) = %v, want %v", tc.older, tc.newer, got, tc.want)
		}
	}
}
