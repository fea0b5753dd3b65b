package edit

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestReplacements(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"Edit", `{"file_path":"a.conf","old_string":"maximumPoolSize = 10","new_string":"maximumPoolSize = 20"}`, "[[maximumPoolSize = 10 maximumPoolSize = 20]]"},
		{"MultiEdit", `{"file_path":"a","edits":[{"old_string":"a: 1","new_string":"a: 2"},{"old_string":"x\ny","new_string":"z"}]}`, "[[a: 1 a: 2]]"},
		{"str_replace_based_edit_tool", `{"command":"str_replace","path":"a","old_str":"port = 1","new_str":"port = 2"}`, "[[port = 1 port = 2]]"},
		{"Edit", `{"file_path":"a","old_string":"func a() {\n}","new_string":"func b() {\n  x()\n}"}`, "[]"}, // code, not a line
		{"Edit", `{"file_path":"a","old_string":"pool: 10\ntimeout: 5","new_string":"pool: 20\ntimeout: 5"}`, "[[pool: 10 pool: 20]]"},
		{"Edit", `{"file_path":"a","old_string":"pool: 10\ntimeout: 5","new_string":"pool: 20\ntimeout: 6"}`, "[[pool: 10 pool: 20] [timeout: 5 timeout: 6]]"}, // a block of settings
		{"Edit", `{"file_path":"a","old_string":"executor: 'ramping-vus',\nstages: [\n  { duration: '2m' },\n],","new_string":"executor: 'constant-arrival-rate',\nrate: 150,"}`, "[[executor: 'ramping-vus', executor: 'constant-arrival-rate',]]"},
		// One line given another value where the edit added lines too;
		// not when two lines put in could be the one it became.
		{"Edit", `{"file_path":"a","old_string":"const PORT = Number(process.env.PORT ?? 4444);","new_string":"const PORT = Number(process.env.PORT ?? 8080);\nconst JWKS = remote(url);"}`, "[[const PORT = Number(process.env.PORT ?? 4444); const PORT = Number(process.env.PORT ?? 8080);]]"},
		{"Edit", `{"file_path":"a","old_string":"pub const default_max_edge: u32 = 256;","new_string":"pub const default_max_edge: u32 = 320;\n\n/// Refused before decoding.\npub const default_max_pixels: u64 = 100_000_000;"}`, "[[pub const default_max_edge: u32 = 256; pub const default_max_edge: u32 = 320;]]"},
		{"Edit", `{"file_path":"a","old_string":"a = 1","new_string":"a = 2\na = 3"}`, "[]"},
		{"Edit", `{"file_path":"a","old_string":"f(1)\ng(2)","new_string":"f(5)"}`, "[]"},
		{"Edit", `{"file_path":"a","old_string":"same","new_string":"same"}`, "[]"},
		{"Write", `{"file_path":"a","content":"x = 1"}`, "[]"},
		{"Edit", `not json`, "[]"},
		{"Edit", `{"old_string":5}`, "[]"},
		// A manifest's dependencies swapped: each taken out paired with
		// what came in; a version bumped in one is a setting.
		{"Edit", `{"file_path":"/p/deno.json","old_string":"\"@std/assert\": \"jsr:@std/assert@^1.0.8\",\n    \"markdown-it\": \"npm:markdown-it@14.1.0\",\n    \"markdown-it-footnote\": \"npm:markdown-it-footnote@4.0.0\"","new_string":"\"@std/assert\": \"jsr:@std/assert@^1.0.8\",\n    \"@deno/gfm\": \"jsr:@deno/gfm@0.10.0\""}`,
			`[["markdown-it": "npm:markdown-it@14.1.0" "@deno/gfm": "jsr:@deno/gfm@0.10.0"] ["markdown-it-footnote": "npm:markdown-it-footnote@4.0.0" "@deno/gfm": "jsr:@deno/gfm@0.10.0"]]`},
		{"Edit", `{"file_path":"package.json","old_string":"\"express\": \"^4.19.2\",\n\"cors\": \"^2.8.5\"","new_string":"\"express\": \"^5.1.0\",\n\"cors\": \"^2.8.5\""}`, `[["express": "^4.19.2", "express": "^5.1.0",]]`},
		{"Edit", `{"file_path":"Cargo.toml","old_string":"reqwest = { version = \"0.11\", features = [\"json\"] }\nserde = \"1\"","new_string":"ureq = { version = \"2.9\" }\nserde = \"1\""}`, `[[reqwest = { version = "0.11", features = ["json"] } ureq = { version = "2.9" }]]`},
		// Not a manifest: the same lines are code.
		{"Edit", `{"file_path":"src/deps.ts","old_string":"\"a\": \"1.0\",\n\"b\": \"2.0\"","new_string":"\"c\": \"3.0\""}`, "[]"},
	} {
		if got := fmt.Sprint(Replacements(tc.name, json.RawMessage(tc.input))); got != tc.want {
			t.Errorf("Replacements(%s, %s) = %s, want %s", tc.name, tc.input, got, tc.want)
		}
	}
}

// TestWriteReplacements: a file written whole gives the settings whose
// value changed against what it held; keys said twice, lines added or
// dropped and code are no replacement.
func TestWriteReplacements(t *testing.T) {
	was := "name = \"shotbox-api\"\ncompatibility_date = \"2024-09-23\"\n[vars]\nRATE = \"60\"\n[env.staging]\nname = \"shotbox-api-staging\"\n"
	now := "name = \"shotbox-api\"\ncompatibility_date = \"2025-03-10\"\n[vars]\nRATE = \"60\"\nport = 8790\n[env.staging]\nname = \"shotbox-staging\"\n"
	got := fmt.Sprint(WriteReplacements(was, now))
	if want := `[[compatibility_date = "2024-09-23" compatibility_date = "2025-03-10"]]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := WriteReplacements("func main() {\n}\n", "func main() {\n\tx()\n}\n"); got != nil {
		t.Errorf("code gave %q", got)
	}
}

// TestReadContent: a Read listing loses its line numbers; other output
// is no file's text.
func TestReadContent(t *testing.T) {
	if got := ReadContent("1\tport = 8790\n2\t\n     3→name = \"a\"\n"); got != "port = 8790\n\nname = \"a\"\n" {
		t.Errorf("got %q", got)
	}
	if got := ReadContent("File created successfully at: a.toml"); got != "" {
		t.Errorf("got %q", got)
	}
}

// FuzzReplacements: whatever an edit call's input holds, Replacements
// does not panic and reports lines of a setting's length at most, a
// manifest's dependencies swapped as well.
func FuzzReplacements(f *testing.F) {
	f.Add("Edit", `{"file_path":"deno.json","old_string":"\"markdown-it\": \"npm:markdown-it@14.1.0\",\n\"x\": \"1\"","new_string":"\"@deno/gfm\": \"jsr:@deno/gfm@0.10.0\""}`)
	f.Add("MultiEdit", `{"file_path":"Cargo.toml","edits":[{"old_string":"a = { version = \"1\" }","new_string":"b = \"2\""}]}`)
	f.Add("Edit", `{"file_path":"a.conf","old_string":"pool: 10","new_string":"pool: 20"}`)
	f.Fuzz(func(t *testing.T, name, input string) {
		for _, r := range Replacements(name, json.RawMessage(input)) {
			if len(r[0]) > maxReplaced || len(r[1]) > maxReplaced {
				t.Errorf("replacement longer than %d bytes: %q", maxReplaced, r)
			}
		}
	})
}
