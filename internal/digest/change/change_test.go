package change

import "testing"

func TestMovedFolder(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"Templates are in `app/prompts/` and rendered with Jinja2.", "Templates moved to `prompts/` at the top level.", true},
		{"Fixtures live in tests/fixtures/ as JSON.", "I moved the fixtures to testdata/fixtures so go test finds them.", true},
		{"Templates are in `prompts/` and rendered with Jinja2.", "Templates moved to `prompts/` at the top level.", false},
		{"The handler is in src/index.ts.", "Moved the router into api/index.ts.", false},
		{"The API docs are in `docs/` (mkdocs).", "Moved the changelog to `docs/`.", false},
	} {
		if got := MovedFolder(Folders(tc.older), tc.newer); got != tc.want {
			t.Errorf("MovedFolder(%q, %q) = %v, want %v", tc.older, tc.newer, got, tc.want)
		}
	}
}

func TestEndsFolder(t *testing.T) {
	for s, want := range map[string]bool{
		"Templates moved to `prompts/` at the top level.":  true,
		"Fixtures are in tests/fixtures/ now":              true,
		"ends with a folder/":                              true,
		"The API reads /etc/acme/app.yaml and/or the env.": false,
		"No slash at all.":                                 false,
	} {
		if got := endsFolder(s); got != want {
			t.Errorf("endsFolder(%q) = %v, want %v", s, got, want)
		}
	}
}
