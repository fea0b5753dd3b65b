package hooks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/model"
)

var testPlan = Plan{
	Capture:      `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`,
	SessionStart: "cairn hook session-start",
}

// userHooks lists every hook command that is not cairn's, by event and
// matcher, decoded independently of the code under test.
func userHooks(t *testing.T, data []byte) []string {
	t.Helper()
	var s struct {
		Hooks map[string][]struct {
			Matcher string            `json:"matcher"`
			Hooks   []json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if len(strings.TrimSpace(string(data))) > 0 {
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if !strings.Contains(string(h), "cairn") {
					out = append(out, ev+"|"+g.Matcher+"|"+string(compact(t, h)))
				}
			}
		}
	}
	return out
}

func compact(t *testing.T, raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return b
}

// others is the settings without "hooks", decoded.
func others(t *testing.T, data []byte) map[string]any {
	t.Helper()
	m := map[string]any{}
	if len(strings.TrimSpace(string(data))) > 0 {
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
	}
	delete(m, "hooks")
	return m
}

func sameSet(a, b []string) bool {
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestMergeKeepsUsersSettings(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/settings/*.json")
	for _, name := range files {
		if filepath.Base(name) == "mcp.json" {
			continue
		}
		t.Run(filepath.Base(name), func(t *testing.T) {
			orig, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			merged, changed, err := Merge(orig, testPlan)
			if err != nil {
				t.Fatal(err)
			}
			if !changed {
				t.Fatal("merge changed nothing")
			}
			if !json.Valid(merged) {
				t.Fatalf("merged is not JSON:\n%s", merged)
			}
			// Nothing of the user's is lost or changed.
			if !sameSet(userHooks(t, orig), userHooks(t, merged)) {
				t.Errorf("user's hooks changed:\nbefore %v\nafter  %v", userHooks(t, orig), userHooks(t, merged))
			}
			if !reflect.DeepEqual(others(t, orig), others(t, merged)) {
				t.Errorf("other settings changed:\n%s", merged)
			}
			// cairn's hooks: one per event, each once.
			found, err := Find(merged)
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != len(model.CaptureEvents())+1 {
				t.Errorf("found %d cairn hooks, want %d: %+v", len(found), len(model.CaptureEvents())+1, found)
			}
			for _, r := range found {
				async := r.Event != "SessionEnd" && r.Event != "SessionStart"
				if r.Async != async || r.Timeout == 0 || r.Type != "command" {
					t.Errorf("%s: %+v", r.Event, r)
				}
			}
			// Idempotent: the same bytes back.
			again, changed, err := Merge(merged, testPlan)
			if err != nil || changed || string(again) != string(merged) {
				t.Errorf("second merge: changed %v, err %v", changed, err)
			}
			// Remove takes out cairn's and only cairn's.
			removed, _, err := Remove(merged)
			if err != nil {
				t.Fatal(err)
			}
			want, _, _ := Remove(orig)
			if !sameSettings(removed, want) {
				t.Errorf("remove did not restore:\n%s\nwant\n%s", removed, want)
			}
			if f, _ := Find(removed); len(f) != 0 {
				t.Errorf("left after remove: %+v", f)
			}
			if _, changed, _ := Remove(removed); changed {
				t.Error("second remove changed something")
			}
		})
	}
}

// A file without cairn comes back as it was, to the byte, after merge
// and remove... in content; and numbers and escapes keep their spelling.
func TestMergeRemoveRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"full.json", "odd.json", "empty-hooks.json", "blank.json"} {
		orig, _ := os.ReadFile(filepath.Join("testdata/settings", name))
		merged, _, err := Merge(orig, testPlan)
		if err != nil {
			t.Fatal(err)
		}
		removed, _, err := Remove(merged)
		if err != nil {
			t.Fatal(err)
		}
		if name == "blank.json" {
			if !Empty(removed) {
				t.Errorf("blank: %s", removed)
			}
			continue
		}
		if !sameSettings(removed, orig) {
			t.Errorf("%s: not restored:\n%s", name, removed)
		}
	}
	odd, _ := os.ReadFile("testdata/settings/odd.json")
	merged, _, _ := Merge(odd, testPlan)
	for _, s := range []string{"1e3", "10.50", "-0.0", "12345678901234567890", `caf\u00e9 \u2603 <b>&amp;</b>`, `"UserPromptSubmit": [`} {
		if !strings.Contains(string(merged), s) {
			t.Errorf("merged odd.json lost %q:\n%s", s, merged)
		}
	}
}

// An old install of cairn (another binary path, the script run directly)
// is replaced, not doubled, and a user's hook in the same group stays.
func TestMergeReplacesOldInstall(t *testing.T) {
	t.Parallel()
	orig, _ := os.ReadFile("testdata/settings/oldcairn.json")
	merged, _, err := Merge(orig, testPlan)
	if err != nil {
		t.Fatal(err)
	}
	found, _ := Find(merged)
	for _, r := range found {
		if r.Command != testPlan.Capture && r.Command != testPlan.SessionStart {
			t.Errorf("old command kept: %+v", r)
		}
	}
	if !strings.Contains(string(merged), "./scripts/log-tool.sh") || !strings.Contains(string(merged), "echo bye >> /tmp/log") {
		t.Errorf("user's hooks lost:\n%s", merged)
	}
}

func TestPromptContext(t *testing.T) {
	t.Parallel()
	p := testPlan
	p.PromptContext = "cairn hook user-prompt-submit"
	merged, _, err := Merge(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]Group `json:"hooks"`
	}
	json.Unmarshal(merged, &s)
	ups := s.Hooks["UserPromptSubmit"]
	if len(ups) != 1 || len(ups[0].Hooks) != 2 || ups[0].Hooks[1].Command != p.PromptContext || ups[0].Hooks[1].Async {
		t.Errorf("UserPromptSubmit: %+v", ups)
	}
	// Turning it off again removes it.
	off, changed, _ := Merge(merged, testPlan)
	if !changed || strings.Contains(string(off), "user-prompt-submit") {
		t.Errorf("prompt context not removed:\n%s", off)
	}
}

func TestInvalidSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data       string
		line, col  int
		msgContain string
	}{
		{"{\n  \"a\": 1,\n  \"b\": ,\n}", 3, 8, "invalid JSON"},
		{"{\"hooks\": {\"Stop\": [}}", 1, 21, "invalid JSON"},
		{"[1,2]", 1, 1, "not a JSON object"},
		{"  \"text\"", 1, 3, "not a JSON object"},
		{"{\"a\":1}\n{\"b\":2}", 2, 1, "invalid JSON"},
		{"{\"a\": 1, // comment\n}", 1, 10, "a comment"},
		{"{\n  /* Gemini reads comments */\n  \"a\": 1\n}", 2, 3, "a comment"},
		{"{\"hooks\":1, \"hooks\":2}", 1, 13, "appears twice"},
		{"{\"a\":1", 1, 7, "invalid JSON"},
	} {
		_, _, err := Merge([]byte(tc.data), testPlan)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: err %v, want a SyntaxError", tc.data, err)
			continue
		}
		if se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Msg, tc.msgContain) {
			t.Errorf("%q: %v, want line %d, column %d, %q", tc.data, se, tc.line, tc.col, tc.msgContain)
		}
		if _, _, err := Remove([]byte(tc.data)); err == nil {
			t.Errorf("%q: Remove accepted it", tc.data)
		}
	}
	for _, bad := range []string{`{"hooks": []}`, `{"hooks": "x"}`, `{"hooks": {"Stop": {}}}`} {
		if _, _, err := Merge([]byte(bad), testPlan); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestMCP(t *testing.T) {
	t.Parallel()
	orig, _ := os.ReadFile("testdata/settings/mcp.json")
	s := MCPServer{Type: "stdio", Command: "cairn", Args: []string{"mcp"}}
	merged, changed, err := MergeMCP(orig, s)
	if err != nil || !changed {
		t.Fatal(err, changed)
	}
	var got struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	json.Unmarshal(merged, &got)
	if len(got.MCPServers) != 3 || !strings.Contains(string(got.MCPServers["cairn"]), `"mcp"`) {
		t.Errorf("merged:\n%s", merged)
	}
	if _, changed, _ := MergeMCP(merged, s); changed {
		t.Error("second merge changed it")
	}
	removed, _, err := RemoveMCP(merged)
	if err != nil || !sameJSON(removed, orig) {
		t.Errorf("remove: %v\n%s", err, removed)
	}
	only, _, _ := MergeMCP(nil, s)
	if gone, _, _ := RemoveMCP(only); !Empty(gone) {
		t.Errorf("cairn alone, removed: %s", gone)
	}
}

func TestIsCairn(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		`sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`: true,
		`"$CLAUDE_PROJECT_DIR"/.cairn/hooks/capture.sh`:         true,
		`sh '/home/u/.config/cairn/hooks/capture.sh'`:           true,
		`cairn hook session-start`:                              true,
		`'/tmp/x y/cairn' hook session-start`:                   true,
		`/usr/local/bin/cairn hook user-prompt-submit`:          true,
		`echo cairn`:                                          false,
		`cairn-notes hook`:                                    false,
		`/tmp/cairn-dev hook session-start`:                   true,
		`'/opt/cairn_v2' hook user-prompt-submit`:             true,
		`cairn-notes hook stop`:                               false,
		`./scripts/log-tool.sh`:                               false,
		`mycairn hook x`:                                      false,
		`cairn hook --agent gemini SessionStart`:              true,
		`/tmp/cairn-dev hook --agent=cursor stop`:             true,
		`cairn-notes hook --agent cursor`:                     false,
		`cairn hook --agent cursor stop --verbose`:            false,
		`/tmp/cairn-dev hook --agent codex capture`:           true,
		`cairn hook -C '/p q' --agent gemini AfterTool`:       true,
		`/tmp/cairn-dev hook -C /p --agent=gemini SessionEnd`: true,
		`/tmp/cairn-dev hook -C /p stop`:                      false,
	} {
		if got := IsCairn(cmd); got != want {
			t.Errorf("IsCairn(%q) = %v", cmd, got)
		}
	}
	// This program's hook is cairn's under any name: the test binary's.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{
		ShellQuote(exe) + " hook session-start": true,
		exe + " hook --agent gemini AfterTool":  true,
		exe + " hooked":                         false,
		exe + "x hook session-start":            false,
	} {
		if got := IsCairn(cmd); got != want {
			t.Errorf("IsCairn(%q) = %v", cmd, got)
		}
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/usr/bin/cairn": "/usr/bin/cairn",
		"/tmp/a b/cairn": "'/tmp/a b/cairn'",
		"/tmp/it's":      `'/tmp/it'\''s'`,
		"":               "''",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzMerge(f *testing.F) {
	files, _ := filepath.Glob("testdata/settings/*.json")
	for _, name := range files {
		data, _ := os.ReadFile(name)
		f.Add(data)
	}
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"command":"cairn hook x"}]},{"hooks":"x"},3]}}`))
	f.Add([]byte(`{"hooks":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		merged, _, err := Merge(data, testPlan)
		if err != nil {
			if _, _, err2 := Remove(data); err2 == nil && json.Valid(data) && isObject(data) {
				// Remove may accept what Merge refuses only for a list it
				// need not open; both must agree the file is JSON.
				_ = err2
			}
			return
		}
		if !json.Valid(merged) {
			t.Fatalf("merge of %q gave invalid JSON %q", data, merged)
		}
		if found, err := Find(merged); err != nil || len(found) != len(model.CaptureEvents())+1 {
			t.Fatalf("merge of %q: %d cairn hooks (%v)", data, len(found), err)
		}
		again, changed, err := Merge(merged, testPlan)
		if err != nil || changed || string(again) != string(merged) {
			t.Fatalf("merge of %q not idempotent: %v %v", data, changed, err)
		}
		removed, _, err := Remove(merged)
		if err != nil {
			t.Fatalf("remove after merge of %q: %v", data, err)
		}
		want, _, err := Remove(data)
		if err != nil {
			t.Fatalf("remove of %q: %v", data, err)
		}
		if !sameSettings(removed, want) {
			t.Fatalf("merge+remove of %q gave %q, want %q", data, removed, want)
		}
		if !reflect.DeepEqual(others(t, data), others(t, merged)) {
			t.Fatalf("merge of %q changed other settings", data)
		}
	})
}

// sameSettings compares two settings files as Claude Code reads them: an
// event with no groups, and a "hooks" with no events (or null), are no
// hooks at all.
func sameSettings(a, b []byte) bool {
	return sameJSON(normalise(a), normalise(b))
}

func normalise(data []byte) []byte {
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if len(strings.TrimSpace(string(data))) == 0 || dec.Decode(&m) != nil {
		return data
	}
	if h, ok := m["hooks"].(map[string]any); ok {
		for ev, v := range h {
			if l, ok := v.([]any); ok && len(l) == 0 {
				delete(h, ev)
			}
		}
		if len(h) == 0 {
			delete(m, "hooks")
		}
	} else if m["hooks"] == nil {
		delete(m, "hooks")
	}
	out, _ := json.Marshal(m)
	return out
}

func isObject(data []byte) bool {
	var m map[string]any
	return json.Unmarshal(data, &m) == nil
}
