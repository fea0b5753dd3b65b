package summarize

import "testing"

// TestTodo38DetailCodeName: a sentence that names code by an identifier
// with "_" names something as surely as one in backticks; the user's
// word that two pending functions are done is what closes them in the
// pack (round of 1 January). A sentence with no name stays out.
func TestTodo38DetailCodeName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"(Both refresh_for_unknown_kid and start_magic_link are done, I wrote them on my machine last night.)", true},
		{"The retry path now reads max_attempts from the config and stops there.", true},
		{"(Both of them are done, I wrote them on my machine last night.)", false},
		{"I think we should keep it simple for a while longer.", false},
	} {
		if got := detail(tc.in); got != tc.want {
			t.Errorf("detail(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
