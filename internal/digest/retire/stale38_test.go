package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestRetiredNowName: a thing given another plain name ("the publisher
// is quill-lang now", "lint becomes standard") retires the name an older
// statement gave it wherever it is named as that thing: beside its noun
// or written as a name. The same noun of another kind ("the release
// branch") and a statement that names the new value keep theirs.
func TestRetiredNowName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		newer  string
		older  []string // the first gives the thing its old value
		checks map[string]bool
	}{
		{"the publisher moved with the org",
			"Last bits. The org transfer went through, so the publisher is quill-lang now, update package.json.",
			[]string{"We should publish to Open VSX too. Write the release workflow; the Marketplace publisher is harborlabs."},
			map[string]bool{
				"The release workflow runs when a v* tag is pushed: tests under xvfb-run, then `vsce publish` to the Marketplace as harborlabs with VSCE_PAT.": true,
				"The Open VSX namespace has to be created by someone who signs the Eclipse agreement.":                                                         false,
				"The extension id will be quill-lang.quill-tools once harborlabs hands the publisher over.":                                                    false,
			}},
		{"the linter changed, told by becomes",
			"Ruby 3.1 is end-of-life, so: out of the matrix, 3.4 in. And lint becomes standard; I'm done bikeshedding cop config.",
			[]string{"Lint is RuboCop with the rubocop-rspec plugin, NewCops enabled, double-quoted strings."},
			map[string]bool{
				"Lint is RuboCop with the rubocop-rspec plugin, NewCops enabled, double-quoted strings.": true,
				"CI runs the lint job on every pull request.":                                            false,
			}},
		{"a job given another tool",
			"Also: the mac people say the linux-builder works great. And I want the cache off the SaaS — use our own Attic server at https://nixcache.acme.internal, cache name \"platform\".",
			[]string{"Let's do the direnv bit now. Also we should stop building everything on every laptop: set up a Cachix cache called acme-dev and have CI push to it."},
			map[string]bool{
				".envrc and the Cachix settings are in.":                                 true,
				"Substituters point at https://acme-dev.cachix.org with its public key.": true,
				"CI runs `nix flake check` on ubuntu-22.04 and macos-14 for every push.": false,
			}},
		{"another branch keeps its name",
			"The default branch is main now, master is gone.",
			[]string{"The release branch is stable, cut every second Tuesday."},
			map[string]bool{
				"The release branch is stable, cut every second Tuesday.": false,
				"Hotfixes are merged into the stable branch first.":       false,
			}},
		{"a common word is no name of the thing",
			"The cache is redis-backed now.",
			[]string{"The cache is used by the API and the worker."},
			map[string]bool{
				"The cache is used by the API and the worker.": false,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newer, older := &digest.Summary{}, &digest.Summary{}
			newer.Parts[digest.Request] = []string{tc.newer}
			older.Parts[digest.Environment] = tc.older
			r := New(nil, []*digest.Summary{newer, older})
			for x, want := range tc.checks {
				if got := r.Retired(x, 1); got != want {
					t.Errorf("Retired(%q) = %v, want %v", x, got, want)
				}
			}
		})
	}
}

// TestDropRetiredOneWordLeft: a list retired but for one word keeps
// nothing: ".envrc" says nothing once "the Cachix settings are in" is
// gone.
func TestDropRetiredOneWordLeft(t *testing.T) {
	newer, older := &digest.Summary{}, &digest.Summary{}
	newer.Parts[digest.Request] = []string{"And I want the cache off the SaaS — use our own Attic server at https://nixcache.acme.internal."}
	older.Parts[digest.Request] = []string{"Set up a Cachix cache called acme-dev and have CI push to it."}
	r := New(nil, []*digest.Summary{newer, older})
	x := ".envrc and the Cachix settings are in. `direnv allow` once, and the shell loads on cd."
	if got, want := r.DropRetired(x, 1), "`direnv allow` once, and the shell loads on cd."; got != want {
		t.Errorf("DropRetired = %q, want %q", got, want)
	}
}
