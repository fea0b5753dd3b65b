package redact

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Finding says what kind of secret was removed and on which line of the
// input (1-based) it started. It never carries the secret.
type Finding struct {
	Kind string `json:"kind"`
	Line int    `json:"line"`
}

// Rule is an extra pattern to redact, in RE2 syntax. When the pattern has
// a capturing group, only the first group's text is replaced (so
// `token: (\S+)` keeps the name); otherwise the whole match is.
type Rule struct {
	Kind    string `json:"kind" yaml:"kind"`
	Pattern string `json:"pattern" yaml:"pattern"`
}

// Config adds to the built-in rules. Rules run as regular expressions
// over the whole text, so each costs a pass: keep them few. A candidate
// secret (built in or from Rules) that matches any Allow pattern is kept.
type Config struct {
	Rules []Rule   `json:"rules,omitempty" yaml:"rules,omitempty"`
	Allow []string `json:"allow,omitempty" yaml:"allow,omitempty"`
}

// Redactor redacts with the built-in rules plus a Config's. The zero value
// uses the built-in rules only. A Redactor is safe for concurrent use.
type Redactor struct {
	rules []compiledRule
	allow []*regexp.Regexp
}

type compiledRule struct {
	kind string
	re   *regexp.Regexp
}

// New compiles cfg. Kinds are lowercase letters, digits and dashes, since
// they become part of the marker.
func New(cfg Config) (*Redactor, error) {
	r := &Redactor{}
	for i, rule := range cfg.Rules {
		if !validKind(rule.Kind) {
			return nil, fmt.Errorf("redact: rule %d: kind %q: want lowercase letters, digits and dashes", i+1, rule.Kind)
		}
		re, err := regexp.Compile(rule.Pattern)
		if err != nil {
			return nil, fmt.Errorf("redact: rule %d (%s): %w", i+1, rule.Kind, err)
		}
		r.rules = append(r.rules, compiledRule{kind: rule.Kind, re: re})
	}
	for i, a := range cfg.Allow {
		re, err := regexp.Compile(a)
		if err != nil {
			return nil, fmt.Errorf("redact: allow pattern %d: %w", i+1, err)
		}
		r.allow = append(r.allow, re)
	}
	return r, nil
}

func validKind(k string) bool {
	if k == "" || len(k) > 40 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Redact returns text with every secret it finds replaced by a marker
// [REDACTED:kind] and every <private>…</private> span removed, and what it
// found, in order. An unterminated <private> drops everything after it and
// is reported as kind "private-unterminated", with a marker where the text
// was cut. Text without secrets comes back unchanged (the same string).
func (r *Redactor) Redact(text string) (string, []Finding) {
	out, findings, _ := r.redact(text)
	return out, findings
}

// File is Redact for a file's content: nil and no findings when it has
// no secret, or is not text (it holds a NUL byte), else the content
// redacted.
func (r *Redactor) File(data []byte) ([]byte, []Finding) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, nil
	}
	out, found := r.Redact(string(data))
	if len(found) == 0 {
		return nil, nil
	}
	return []byte(out), found
}

// maxPasses bounds the passes redact makes to reach a fixed point. A
// second pass finds something only when removing one secret joined the
// text around it into another.
const maxPasses = 4

// redact also returns the secrets it removed, for tests.
func (r *Redactor) redact(text string) (string, []Finding, []string) {
	out, findings, secrets := r.pass(text)
	for i := 1; i < maxPasses && len(findings) > 0; i++ {
		next, more, s := r.pass(out)
		if len(more) == 0 {
			break
		}
		// Lines of later passes count in the text the earlier pass left:
		// close enough for a report, and such findings are rare.
		findings = append(findings, more...)
		secrets = append(secrets, s...)
		out = next
	}
	return out, findings, secrets
}

// A span is a byte range of the text to replace.
type span struct {
	start, end int
	kind       string
	prio       int  // lower names a merged span; ties go to the longer
	drop       bool // remove without a marker (<private>)
	marker     bool // kind's marker replaces it even when drop
}

// Priorities: specific formats name a span before generic assignments.
const (
	prioPrivate = iota
	prioToken
	prioURL
	prioRule
	prioBearer
	prioAssign
	prioEntropy
	prioRepeat
)

// maxRepeats bounds the distinct values whose other occurrences are
// searched for, so that a text full of secrets stays linear-ish.
const maxRepeats = 256

// minRepeat is the shortest value whose other occurrences are replaced:
// shorter ones (a four-letter password) are too likely to be ordinary words.
const minRepeat = 8

func (r *Redactor) pass(text string) (string, []Finding, []string) {
	var spans []span
	scan(text, &spans)
	for _, rule := range r.rules {
		for _, m := range rule.re.FindAllStringSubmatchIndex(text, -1) {
			s, e := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 {
				s, e = m[2], m[3]
			}
			if e > s && !isMarkerAt(text, s) {
				spans = append(spans, span{start: s, end: e, kind: rule.kind, prio: prioRule})
			}
		}
	}
	if len(spans) == 0 {
		return text, nil, nil
	}
	if len(r.allow) > 0 {
		kept := spans[:0]
		for _, sp := range spans {
			if sp.drop || !r.allowed(text[sp.start:sp.end]) {
				kept = append(kept, sp)
			}
		}
		spans = kept
		if len(spans) == 0 {
			return text, nil, nil
		}
	}

	// Every other occurrence of a value found in context is the same
	// secret out of context ("export X=$value" then "curl -u $value").
	seen := map[string]bool{}
	var secrets []string
	var again []span
	for _, sp := range spans {
		if sp.drop {
			continue
		}
		v := text[sp.start:sp.end]
		if seen[v] {
			continue
		}
		seen[v] = true
		secrets = append(secrets, v)
		if len(v) >= minRepeat && len(again) < maxRepeats {
			again = append(again, sp)
		}
	}
	spans = repeats(text, again, spans)

	spans = merge(spans)
	var b strings.Builder
	b.Grow(len(text))
	findings := make([]Finding, 0, len(spans))
	line, last := 1, 0
	for _, sp := range spans {
		line += strings.Count(text[last:sp.start], "\n")
		findings = append(findings, Finding{Kind: sp.kind, Line: line})
		b.WriteString(text[last:sp.start])
		if !sp.drop || sp.marker {
			b.WriteString("[REDACTED:")
			b.WriteString(sp.kind)
			b.WriteByte(']')
		}
		line += strings.Count(text[sp.start:sp.end], "\n")
		last = sp.end
	}
	b.WriteString(text[last:])
	return b.String(), findings, secrets
}

// repeats appends a span for every occurrence in text of the values of
// found. It reads the text once: each 8-byte window is looked up among the
// values' first 8 bytes, through a 64 Kib filter.
func repeats(text string, found []span, spans []span) []span {
	if len(found) == 0 {
		return spans
	}
	const bits = 16
	var filter [1 << bits / 64]uint64
	byPrefix := map[uint64][]span{}
	for _, sp := range found {
		k := binary.LittleEndian.Uint64([]byte(text[sp.start : sp.start+minRepeat]))
		h := (k * 0x9E3779B97F4A7C15) >> (64 - bits)
		filter[h/64] |= 1 << (h % 64)
		byPrefix[k] = append(byPrefix[k], sp)
	}
	for i := 0; i+minRepeat <= len(text); i++ {
		k := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		h := (k * 0x9E3779B97F4A7C15) >> (64 - bits)
		if filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, sp := range byPrefix[k] {
			n := sp.end - sp.start
			if i != sp.start && strings.HasPrefix(text[i:], text[sp.start:sp.end]) {
				spans = append(spans, span{start: i, end: i + n, kind: sp.kind, prio: prioRepeat})
			}
		}
	}
	return spans
}

func (r *Redactor) allowed(v string) bool {
	for _, re := range r.allow {
		if re.MatchString(v) {
			return true
		}
	}
	return false
}

// merge sorts spans and joins overlapping ones, so that no part of any
// secret survives. The joined span takes the kind of its first span.
func merge(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool {
		a, b := spans[i], spans[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		return a.end > b.end
	})
	out := spans[:1]
	for _, sp := range spans[1:] {
		cur := &out[len(out)-1]
		if sp.start < cur.end {
			cur.end = max(cur.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

const markerPrefix = "[REDACTED:"

// isMarkerAt reports whether a marker starts at i: a value that is a
// marker has been redacted already.
func isMarkerAt(text string, i int) bool {
	return strings.HasPrefix(text[i:], markerPrefix)
}

// afterMarker reports whether position i follows a marker's prefix, as
// the kind inside "[REDACTED:api-key]" does: it is not a name to look at.
func afterMarker(text string, i int) bool {
	return i >= len(markerPrefix) && text[i-len(markerPrefix):i] == markerPrefix
}
