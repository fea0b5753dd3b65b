package model

import (
	"strings"
	"testing"
)

func TestParseKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Kind
	}{
		{"decision", Decision},
		{"Decision", Decision},
		{"decisions", Decision},
		{" DECISIONS\n", Decision},
		{"fact", Fact},
		{"Facts", Fact},
		{"pattern", Pattern},
		{"preferences", Preference},
		{"note", Note},
		{"notes", Note},
		{"summary", Summary},
		{"Summaries", Summary},
		{"observations", Observation},
	}
	for _, tt := range tests {
		got, err := ParseKind(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseKindError(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "decisionss", "summarys", "core/decisions", "idea"} {
		k, err := ParseKind(in)
		if err == nil {
			t.Errorf("ParseKind(%q) = %q, want an error", in, k)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "decision, fact, pattern, preference, note, summary, observation") {
			t.Errorf("ParseKind(%q) error %q does not list the kinds", in, msg)
		}
		if msg != strings.ToLower(msg[:1])+msg[1:] {
			t.Errorf("ParseKind(%q) error %q is not lower-case", in, msg)
		}
	}
}

func TestKindDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k    Kind
		want string
	}{
		{Decision, "core/decisions"},
		{Fact, "core/facts"},
		{Pattern, "core/patterns"},
		{Preference, "core/preferences"},
		{Note, "core/notes"},
		{Summary, "core/summaries"},
		{Observation, "core/observations"},
		{"", ""},
		{"Decision", ""},
		{"../x", ""},
	}
	for _, tt := range tests {
		if got := tt.k.Dir(); got != tt.want {
			t.Errorf("Kind(%q).Dir() = %q, want %q", tt.k, got, tt.want)
		}
	}
}

func TestKinds(t *testing.T) {
	t.Parallel()
	got := Kinds()
	want := []Kind{Decision, Fact, Pattern, Preference, Note}
	if len(got) != len(want) {
		t.Fatalf("Kinds() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Kinds()[%d] = %q, want %q", i, got[i], want[i])
		}
		if !got[i].Valid() {
			t.Errorf("Kinds()[%d] = %q is not valid", i, got[i])
		}
	}
	// Each kind's folder names it back.
	for _, k := range AllKinds() {
		dir := k.Dir()
		back, err := ParseKind(dir[strings.LastIndex(dir, "/")+1:])
		if err != nil || back != k {
			t.Errorf("ParseKind of %q = %q, %v; want %q", dir, back, err, k)
		}
	}
}
