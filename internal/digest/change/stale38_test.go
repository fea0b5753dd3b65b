package change

import "testing"

// TestQualifier: the word before a noun given a value says which kind of
// the thing it is; an article, a possessive or a conjunction says none.
func TestQualifier(t *testing.T) {
	for _, tc := range []struct{ s, noun, want string }{
		{"the release branch is stable", "branch", "release"},
		{"The default branch is main now", "branch", "default"},
		{"the publisher is quill-lang now", "publisher", ""},
		{"Write the workflow; the Marketplace publisher is harborlabs.", "publisher", "marketplace"},
		{"the branch we cut from is stable", "branch", ""},
		{"And lint becomes standard", "lint", ""},
		{"so the extension id becomes quill-lang.quill-tools", "id", "extension"},
	} {
		if got := Qualifier(tc.s, tc.noun); got != tc.want {
			t.Errorf("Qualifier(%q, %q) = %q, want %q", tc.s, tc.noun, got, tc.want)
		}
	}
}
