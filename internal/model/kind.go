package model

import (
	"fmt"
	"strings"
)

// Kind says what a memory item records. It decides the folder the item
// lives in and how it is ranked and packed.
type Kind string

// The kinds of memory item. Decisions, facts, patterns and preferences are
// core memory; notes are what people write by hand; summaries and
// observations are produced from agent sessions.
const (
	Decision    Kind = "decision"
	Fact        Kind = "fact"
	Pattern     Kind = "pattern"
	Preference  Kind = "preference"
	Note        Kind = "note"
	Summary     Kind = "summary"
	Observation Kind = "observation"
)

// AllKinds is in the order that error messages and listings use.
func AllKinds() []Kind {
	return []Kind{Decision, Fact, Pattern, Preference, Note, Summary, Observation}
}

// Kinds returns the kinds a user creates directly (with cairn remember, for
// instance): decision, fact, pattern, preference and note. Summaries and
// observations are written by cairn itself.
func Kinds() []Kind {
	return []Kind{Decision, Fact, Pattern, Preference, Note}
}

// ParseKind returns the kind named by s. It ignores case and surrounding
// space and accepts the plural that names the kind's folder, so "Decision",
// "decisions" and "DECISIONS" all give Decision.
func ParseKind(s string) (Kind, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, k := range AllKinds() {
		if name == string(k) || name == k.plural() {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q: want one of %s", s, kindList())
}

func kindList() string {
	names := make([]string, 0, len(AllKinds()))
	for _, k := range AllKinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// Valid reports whether k is one of the known kinds, spelled canonically.
func (k Kind) Valid() bool {
	for _, known := range AllKinds() {
		if k == known {
			return true
		}
	}
	return false
}

// Dir returns the slash-separated folder, relative to the root of the
// memory repository, that holds items of kind k: "core/decisions",
// "core/facts", "core/patterns", "core/preferences", "core/notes",
// "core/summaries" or "core/observations". It returns "" for an unknown kind.
func (k Kind) Dir() string {
	if !k.Valid() {
		return ""
	}
	return "core/" + k.plural()
}

func (k Kind) plural() string {
	if k == Summary {
		return "summaries"
	}
	return string(k) + "s"
}
