package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/redact"
)

// MaxSize is the largest cairn.yaml cairn reads: the file holds a
// few dozen keys, and a remote's file is read before it is taken.
const MaxSize = 256 << 10

// maxNodes bounds the YAML nodes of a cairn.yaml.
const maxNodes = 20_000

// Problem is one key of a cairn.yaml that is invalid or unknown.
type Problem struct {
	Key    string // dotted, "summarize.daily_tokens", "capture.redact.rules[2]"; "" for the whole file
	Line   int    // 0 when unknown
	Reason string
}

// String says where and why, on one line.
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(oneLine(p.Reason))
	return b.String()
}

// Error lists the invalid keys of a cairn.yaml, or why the file
// could not be read at all.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	s := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// Parse reads the bytes of a cairn.yaml over the defaults and checks
// every key (Check). When some keys are invalid it returns a
// *Error naming them, with the defaults in their place; a file that
// is not YAML, is too large or uses aliases gives the defaults whole.
func Parse(b []byte) (Config, error) {
	c, _, err := Check(b)
	return c, err
}

// Check is Parse that also returns the keys cairn does not
// know (ignored, so that a newer cairn's configuration still loads).
//
// Every key is checked for its type and range: durations are not
// negative (zero only where it means the default), token counts and
// budgets are 0 or more (summarize.daily_tokens: -1 is no cap), URLs are
// http or https with a host, providers are known values, environment
// variable names are names, and capture.redact's patterns compile with
// the redactor that will run them. YAML aliases are refused: a
// configuration has no use for them, and they are how YAML bombs grow.
func Check(b []byte) (Config, []Problem, error) {
	whole := func(line int, reason string) (Config, []Problem, error) {
		return Default(), nil, &Error{Problems: []Problem{{Line: line, Reason: reason}}}
	}
	if len(b) > MaxSize {
		return whole(0, fmt.Sprintf("%d bytes, more than the %d cairn reads", len(b), MaxSize))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return whole(0, "not YAML: "+strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return Default(), nil, nil // empty: the defaults
	}
	if line, tooMany := findAlias(&doc); tooMany {
		return whole(0, fmt.Sprintf("more than %d YAML nodes", maxNodes))
	} else if line >= 0 {
		return whole(line, "YAML aliases and merge keys are not allowed in "+File)
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return Default(), nil, nil
	}
	if top.Kind != yaml.MappingNode {
		return whole(top.Line, "want a mapping of keys at the top, got "+describe(top))
	}
	ck := &checker{}
	clean := ck.mapping(top, reflect.TypeFor[Config](), "")
	c := Default()
	if err := clean.Decode(&c); err != nil {
		// The checks above decode every key on its own; this is not
		// expected, and means the defaults.
		return whole(0, err.Error())
	}
	if c.LockTimeout <= 0 {
		c.LockTimeout = Default().LockTimeout
	}
	var err error
	if len(ck.problems) > 0 {
		err = &Error{Problems: ck.problems}
	}
	return c, ck.unknown, err
}

// findAlias returns the line of the first alias or merge key in the tree
// (-1 when there is none), or that the tree has too many nodes to look.
func findAlias(root *yaml.Node) (int, bool) {
	count := 0
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		count++
		if count > maxNodes {
			return 0
		}
		if n.Kind == yaml.AliasNode || n.Tag == "!!merge" {
			return n.Line
		}
		for _, c := range n.Content {
			if l := walk(c); l >= 0 {
				return l
			}
		}
		return -1
	}
	line := walk(root)
	return line, count > maxNodes
}

// checker walks a cairn.yaml against the Config type.
type checker struct {
	problems, unknown []Problem
}

func (k *checker) bad(key string, n *yaml.Node, format string, args ...any) {
	k.problems = append(k.problems, Problem{Key: key, Line: n.Line, Reason: fmt.Sprintf(format, args...)})
}

// mapping checks a mapping node for struct type t and returns a copy
// holding only its valid, known keys.
func (k *checker) mapping(n *yaml.Node, t reflect.Type, prefix string) *yaml.Node {
	fields := yamlFields(t)
	out := *n
	out.Content = nil
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			k.bad(prefix+"?", kn, "a key must be a plain name, got %s", describe(kn))
			continue
		}
		key := prefix + kn.Value
		if l, ok := seen[kn.Value]; ok {
			k.bad(key, kn, "set twice (first on line %d)", l)
			continue
		}
		seen[kn.Value] = kn.Line
		f, ok := fields[kn.Value]
		if !ok {
			k.unknown = append(k.unknown, Problem{Key: key, Line: kn.Line, Reason: "unknown key (ignored)"})
			continue
		}
		if v, ok := k.value(vn, f.Type, key); ok {
			out.Content = append(out.Content, kn, v)
		}
	}
	return &out
}

// value checks the node of one key of type t; it returns the node to keep,
// or false to drop the key (its default stays).
func (k *checker) value(n *yaml.Node, t reflect.Type, key string) (*yaml.Node, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return n, true // "key:" with nothing: the default
	}
	switch {
	case t.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			k.bad(key, n, "want a mapping of keys, got %s", describe(n))
			return nil, false
		}
		return k.mapping(n, t, key+"."), true
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			k.bad(key, n, "want a list, got %s", describe(n))
			return nil, false
		}
		out := *n
		out.Content = nil
		for i, e := range n.Content {
			ek := fmt.Sprintf("%s[%d]", key, i+1)
			en, ok := k.value(e, t.Elem(), ek)
			if !ok {
				continue
			}
			if check := elemChecks[key]; check != nil {
				v := reflect.New(t.Elem())
				if err := en.Decode(v.Interface()); err != nil {
					k.bad(ek, e, "%s", decodeReason(err, t.Elem(), e))
					continue
				}
				if reason := check(v.Elem().Interface()); reason != "" {
					k.bad(ek, e, "%s", reason)
					continue
				}
			}
			out.Content = append(out.Content, en)
		}
		return &out, true
	}
	if n.Kind != yaml.ScalarNode {
		k.bad(key, n, "want %s, got %s", wantOf(t), describe(n))
		return nil, false
	}
	v := reflect.New(t)
	if err := n.Decode(v.Interface()); err != nil {
		k.bad(key, n, "%s", decodeReason(err, t, n))
		return nil, false
	}
	if check := checks[key]; check != nil {
		if reason := check(v.Elem().Interface()); reason != "" {
			k.bad(key, n, "%s", reason)
			return nil, false
		}
	}
	return n, true
}

// yamlFields maps the YAML names of a struct's fields to them, with the
// fields of ",inline" structs as the struct's own.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

var durationType = reflect.TypeFor[Duration]()

func wantOf(t reflect.Type) string {
	switch {
	case t == durationType || t == reflect.TypeFor[time.Duration]():
		return "a duration like 10s"
	case t.Kind() == reflect.Pointer:
		return wantOf(t.Elem())
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	}
	return t.String()
}

func decodeReason(err error, t reflect.Type, n *yaml.Node) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("want %s, got %s", wantOf(t), describe(n))
	}
	return err.Error()
}

// describe names a node for a message: its value, cut short, or its kind.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return fmt.Sprintf("%q", v)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// The range of each key, by its dotted name; a check returns why the
// value is wrong, or "".
var checks = map[string]func(v any) string{
	"schema": func(v any) string {
		if v.(int) != 1 {
			return fmt.Sprintf("%d: want 1 (this cairn knows schema 1)", v)
		}
		return ""
	},
	"lock_timeout": positiveDuration,

	"search.chunk_tokens": func(v any) string {
		if n := v.(int); n != 0 && (n < 32 || n > 8192) {
			return fmt.Sprintf("%d: want 32 to 8192", n)
		}
		return ""
	},
	"search.overlap_tokens":         nonNegative,
	"search.weights.relevance":      weight,
	"search.weights.recency":        weight,
	"search.weights.importance":     weight,
	"search.weights.references":     weight,
	"search.recency_half_life_days": weight,
	"search.min_similarity":         similarity,
	"search.vector_weight":          vectorWeight,
	"search.min_match":              share,
	"search.context_budget":         nonNegative,
	"search.associations.words":     nonNegative,
	"search.associations.weight":    share,
	"search.max_file_bytes":         sizeLimit,
	"search.embedder.provider":      oneOf("builtin", "openai-compatible", "openai", "ollama"),
	"search.embedder.base_url":      httpURL,
	"search.embedder.model":         plainString,
	"search.embedder.dimensions":    nonNegative,
	"search.embedder.api_key_env":   envName,
	"search.embedder.timeout":       durationOrDefault,
	"capture.segment_turns":         nonNegative,
	"capture.segment_tokens":        nonNegative,
	"capture.archive_after":         durationOrDefault,
	"capture.transcripts_keep":      keepDuration,
	"capture.max_output":            nonNegative,
	"summarize.provider":            oneOf("extractive", "claude", "claude-cli", "anthropic", "openai"),
	"summarize.model":               plainString,
	"summarize.base_url":            httpURL,
	"summarize.api_key_env":         envName,
	"summarize.timeout":             durationOrDefault,
	"summarize.max_tokens":          nonNegative,
	"summarize.daily_tokens":        dailyTokens,
	"summarize.claude_path":         plainString,
	"summarize.attempts":            attempts,
	"summarize.backoff":             durationOrDefault,
	"hooks.prompt_memories":         nonNegative,
	"sync.after":                    durationOrDefault,
	"sync.interval":                 durationOrDefault,
	"sync.max_backoff":              durationOrDefault,
	"sync.max_blob_bytes":           sizeLimit,
	"daemon.memory_limit_mib": func(v any) string {
		if n := v.(int64); n != 0 && (n < 32 || n > 1<<20) {
			return fmt.Sprintf("%d: want 32 to 1048576 MiB (0: the default, %d)", n, DefaultDaemonMemoryMiB)
		}
		return ""
	},
}

// The checks of each element of a list, by the list's dotted name.
var elemChecks = map[string]func(v any) string{
	"capture.transcripts": func(v any) string {
		if s := v.(string); strings.TrimSpace(s) == "" {
			return "an empty glob"
		}
		return plainString(v)
	},
	// The redactor that runs them compiles them here, so that a pattern
	// it refuses never reaches a write.
	"capture.redact.rules": func(v any) string {
		if _, err := redact.New(redact.Config{Rules: []redact.Rule{v.(redact.Rule)}}); err != nil {
			return strings.TrimPrefix(strings.Replace(err.Error(), "rule 1", "rule", 1), "redact: ")
		}
		return ""
	},
	"encrypt.paths": func(v any) string {
		if err := crypt.CheckPattern(v.(string)); err != nil {
			return strings.TrimPrefix(err.Error(), "encrypt.paths: ")
		}
		return ""
	},
	"encrypt.recipients": func(v any) string {
		if _, err := crypt.ParseRecipient(v.(string)); err != nil {
			return strings.TrimPrefix(err.Error(), "encrypt.recipients: ")
		}
		return ""
	},
	"capture.redact.allow": func(v any) string {
		if _, err := redact.New(redact.Config{Allow: []string{v.(string)}}); err != nil {
			return strings.TrimPrefix(strings.Replace(err.Error(), "allow pattern 1", "pattern", 1), "redact: ")
		}
		return ""
	},
}

func nonNegative(v any) string {
	if n := v.(int); n < 0 {
		return fmt.Sprintf("%d: want 0 or more (0: the default)", n)
	}
	return ""
}

// sizeLimit is a number of bytes: 0 for the default, else 1 KiB to 1 GiB.
func sizeLimit(v any) string {
	if n := v.(int64); n != 0 && (n < MinSizeLimit || n > MaxSizeLimit) {
		return fmt.Sprintf("%d: want %d (1 KiB) to %d (1 GiB) bytes (0: the default)", n, MinSizeLimit, MaxSizeLimit)
	}
	return ""
}

func attempts(v any) string {
	if n := v.(int); n < 0 || n > 10 {
		return fmt.Sprintf("%d: want 0 to 10 (0: the default, 3)", n)
	}
	return ""
}

func dailyTokens(v any) string {
	if n := v.(int64); n < -1 {
		return fmt.Sprintf("%d: want 0 or more (0: the default), or -1 for no cap", n)
	}
	return ""
}

func weight(v any) string {
	if f := v.(float64); math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return fmt.Sprintf("%v: want a number, 0 or more", f)
	}
	return ""
}

func share(v any) string {
	if f := v.(float64); math.IsNaN(f) || f < 0 || f > 1 {
		return fmt.Sprintf("%v: want 0 to 1", f)
	}
	return ""
}

func vectorWeight(v any) string {
	if f := v.(float64); math.IsNaN(f) || f > 100 {
		return fmt.Sprintf("%v: want 0 to 100 (below 0: the embedder's weight)", f)
	}
	return ""
}

func similarity(v any) string {
	if f := v.(float64); math.IsNaN(f) || f < -1 || f > 1 {
		return fmt.Sprintf("%v: want -1 to 1 (below 0: the embedder's floor)", f)
	}
	return ""
}

func asDuration(v any) time.Duration {
	if d, ok := v.(Duration); ok {
		return time.Duration(d)
	}
	return v.(time.Duration)
}

func positiveDuration(v any) string {
	if d := asDuration(v); d <= 0 {
		return fmt.Sprintf("%v: want a duration above 0, like 10s", d)
	}
	return ""
}

// keepDuration is a retention: 0 keeps for good; otherwise a day at
// least, since a shorter one would drop the transcript of a session
// archived moments ago.
func keepDuration(v any) string {
	if d := asDuration(v); d != 0 && d < 24*time.Hour {
		return fmt.Sprintf("%v: want 1d or more, like 90d (0: keep)", d)
	}
	return ""
}

// durationOrDefault: 0 means the default; a duration below a millisecond
// is a number written without its unit.
func durationOrDefault(v any) string {
	d := asDuration(v)
	if d < 0 {
		return fmt.Sprintf("%v: want a duration of 0 or more, like 10s (0: the default)", d)
	}
	if d > 0 && d < time.Millisecond {
		return fmt.Sprintf("%v: too short; write the unit, like 10s", d)
	}
	return ""
}

func oneOf(values ...string) func(v any) string {
	return func(v any) string {
		s := v.(string)
		for _, x := range values {
			if strings.EqualFold(strings.TrimSpace(s), x) {
				return ""
			}
		}
		return fmt.Sprintf("%q: want %s", s, strings.Join(values, ", "))
	}
}

func httpURL(v any) string {
	s := v.(string)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Sprintf("not a URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Sprintf("%q: want an http:// or https:// URL with a host", u.Redacted())
	}
	return ""
}

var envNameRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func envName(v any) string {
	if s := v.(string); s != "" && !envNameRe.MatchString(s) {
		return fmt.Sprintf("%q: want the name of an environment variable, like OPENAI_API_KEY (never the key)", s)
	}
	return ""
}

// plainString refuses control characters, which no model name, path or
// glob holds.
func plainString(v any) string {
	s := v.(string)
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Sprintf("%q: control characters are not allowed", s)
	}
	return ""
}
