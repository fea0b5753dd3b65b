package edits

import (
	"slices"
	"testing"
)

func TestNote(t *testing.T) {
	var v Values
	v.Note([2]string{"reminders: 10 # a day", "reminders: 3"})
	v.Note([2]string{"reminders: 3", "reminders: 15"}) // the same line again: first and last value
	v.Note([2]string{"name: api", "name: web"})        // no number: no value changed
	v.Note([2]string{"port: 8080", "port: 8081"})      // given another value
	v.Note([2]string{"port: 8081", "port: 8080"})      // and put back as it was
	v.Note([2]string{"a: 1 b: 2", "a: 3 b: 4"})        // two words changed: no one value
	v.Note([2]string{"executor: 'ramping-vus',", "executor: 'constant-arrival-rate',"})
	v.Note([2]string{"handler = make(db)", "handler = make(db, log)"}) // an expression: code
	if want := (Values{{"reminders: 10", "reminders: 15"}, {"executor: 'ramping-vus',", "executor: 'constant-arrival-rate',"}}); !slices.Equal(v, want) {
		t.Errorf("values = %q, want %q", v, want)
	}
}

func TestNoteDeclaration(t *testing.T) {
	for _, c := range []struct {
		was, now string
		noted    bool
	}{
		{"pub const default_filter: Filter = .lanczos3;", "pub const default_filter: Filter = .mitchell;", true},
		{`export const API_HOST = "api-v1.example.org";`, `export const API_HOST = "api.example.org";`, true},
		{"let mut mode = Mode::Fast;", "let mut mode = Mode::Slow;", false}, // a path, not a literal this reads
		{"const filter = .bilinear;", "const filter = .lanczos3;", false},   // the first a word: may be anything
		{"return makeHandler(db);", "return makeHandler(db, log);", false},
		{"static = assets/v1", "static = assets/v2", true}, // a keyword that is the key
		{"internal = dns-01", "internal = http-01", true},
		{"pub fn resize(img: Image) Image {", "pub fn resize(img: Image, f: Filter) Image {", false},
	} {
		var v Values
		v.Note([2]string{c.was, c.now})
		if got := len(v) == 1; got != c.noted {
			t.Errorf("Note(%q → %q) noted %v, want %v", c.was, c.now, got, c.noted)
		}
	}
}

// A dependency put in the place of another is noted; a line that is no
// dependency of a manifest is not, and neither is a package said again.
func TestNoteSwap(t *testing.T) {
	for _, c := range []struct {
		was, now string
		noted    bool
	}{
		{`"markdown-it": "npm:markdown-it@14.1.0"`, `"@deno/gfm": "jsr:@deno/gfm@0.10.0"`, true},
		{`reqwest = { version = "0.11", features = ["json"] }`, `ureq = { version = "2.9" }`, true},
		{`"moment": "^2.29.4",`, `"date-fns": "^3.6.0",`, true},
		{`"name": "inkwell",`, `"name": "quill",`, false},
		{`"lodash": "^4.17.21"`, `"lodash": "^4.17.21"`, false},
		{`"build": "tsc -p ."`, `"test": "vitest"`, false}, // scripts, not versions
	} {
		var v Values
		v.Note([2]string{c.was, c.now})
		if got := len(v) == 1; got != c.noted {
			t.Errorf("Note(%q → %q) noted %v, want %v", c.was, c.now, got, c.noted)
		}
	}
	for _, f := range []string{"package.json", "/p/deno.json", "crates/x/Cargo.toml", "pyproject.toml"} {
		if !Manifest(f) {
			t.Errorf("%s is no manifest", f)
		}
	}
	if Manifest("src/package.ts") || Manifest("tsconfig.json") {
		t.Error("a source file or a config taken for a manifest")
	}
}
