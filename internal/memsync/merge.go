package memsync

import (
	"bytes"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/purgelist"
	"github.com/cairn-mem/cairn/internal/model"
)

// The content rules of a sync, for files both sides changed:
//
//   - the append-only logs of a session (prompts.md, transcript.md,
//     observations.md, summary.md) take the union of both sides' sections,
//     in time order;
//   - session.yaml merges field by field: counters take the larger,
//     timestamps the later, other fields the side that changed them (the
//     side updated last when both did);
//   - anything else — memory items above all — keeps our version in place
//     and writes theirs beside it as a conflict copy,
//     <name>.conflict-<host>-<yyyymmdd-hhmmss><ext>, marked in its front
//     matter, for cairn resolve;
//   - a file changed on one side and deleted on the other keeps the change;
//   - cairn.yaml from the remote is looked at even when only the remote
//     changed it: when it is not valid as a whole (config.Parse), or
//     sets any of the guarded keys (guardedKeys: what spends money, runs a
//     program, sends data anywhere, reads files or is not redacted)
//     otherwise than ours, ours stays and theirs becomes a conflict copy,
//     so that a remote cannot make this machine run, spend or send
//     anything; the other keys merge like any file.
//
// No rule drops a side's content: what cannot be combined is kept twice.

// conflictName matches the name of a conflict copy.
var conflictName = lazyre.New(`\.conflict-([A-Za-z0-9._-]*)-(\d{8}-\d{6})(-\d+)?(\.[A-Za-z0-9]+)?$`)

// stampRe finds the time in a log section's heading: "2025-11-28 09:14:05
// UTC", "2025-11-28 09:14–09:16 UTC" or RFC 3339.
var stampRe = lazyre.New(`\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?`)

// IsConflictCopy reports whether p names a conflict copy made by a sync.
func IsConflictCopy(p string) bool { return conflictName.MatchString(path.Base(p)) }

// ConflictOriginal returns the path a conflict copy stands beside.
func ConflictOriginal(p string) string {
	base := path.Base(p)
	loc := conflictName.FindStringSubmatchIndex(base)
	if loc == nil {
		return p
	}
	ext := ""
	if loc[8] >= 0 {
		ext = base[loc[8]:loc[9]]
	}
	return path.Join(path.Dir(p), base[:loc[0]]+ext)
}

// merger decides about files both sides of a sync changed.
type merger struct {
	host   string
	now    time.Time
	remote string
	taken  map[string]bool // conflict copy names handed out in this merge
	purged []string        // memory.PurgedFile's paths: never taken from theirs
	// warnings say what the merge kept from being applied.
	warnings []string
}

// isConfig reports whether p is the configuration in any case: on a file
// system that ignores case, CAIRN.YAML is cairn.yaml.
func isConfig(p string) bool { return strings.EqualFold(p, config.File) }

// guardedKeys lists the keys of cairn.yaml a sync does not take from a
// remote, with how to read each from a Config: every key that spends
// money (a paid model, its budget, its retries), runs a program (the
// claude CLI, the agent hooks), sends data anywhere (a URL, a key's
// variable, the pushes of the daemon's sync), reads files (transcripts),
// lets secrets through (capture.redact.allow), deletes what this machine
// keeps or stops its commits, and the largest file a sync takes
// (sync.max_blob_bytes). docs/sync.md lists
// them.
var guardedKeys = []struct {
	key string
	get func(*config.Config) any
}{
	{"summarize.provider", func(c *config.Config) any { return c.Summarize.Provider }},
	{"summarize.model", func(c *config.Config) any { return c.Summarize.Model }},
	{"summarize.base_url", func(c *config.Config) any { return c.Summarize.BaseURL }},
	{"summarize.api_key_env", func(c *config.Config) any { return c.Summarize.APIKeyEnv }},
	{"summarize.max_tokens", func(c *config.Config) any { return c.Summarize.MaxTokens }},
	{"summarize.daily_tokens", func(c *config.Config) any { return c.Summarize.DailyTokens }},
	{"summarize.attempts", func(c *config.Config) any { return c.Summarize.Attempts }},
	{"summarize.timeout", func(c *config.Config) any { return c.Summarize.Timeout }},
	{"summarize.claude_path", func(c *config.Config) any { return c.Summarize.ClaudePath }},
	{"search.embedder.provider", func(c *config.Config) any { return c.Search.Embedder.Provider }},
	{"search.embedder.base_url", func(c *config.Config) any { return c.Search.Embedder.BaseURL }},
	{"search.embedder.model", func(c *config.Config) any { return c.Search.Embedder.Model }},
	{"search.embedder.api_key_env", func(c *config.Config) any { return c.Search.Embedder.APIKeyEnv }},
	{"capture.transcripts", func(c *config.Config) any { return c.Capture.Transcripts }},
	{"capture.redact.allow", func(c *config.Config) any { return c.Capture.Redact.Allow }},
	{"hooks.prompt_context", func(c *config.Config) any { return c.Hooks.PromptContext }},
	{"hooks.prompt_memories", func(c *config.Config) any { return c.Hooks.PromptMemories }},
	{"sync.auto", func(c *config.Config) any { return c.Sync.Enabled() }},
	{"sync.after", func(c *config.Config) any { return c.Sync.After }},
	{"sync.interval", func(c *config.Config) any { return c.Sync.Interval }},
	{"sync.max_backoff", func(c *config.Config) any { return c.Sync.MaxBackoff }},
	// A remote that raised it could make the next sync read a huge file.
	{"sync.max_blob_bytes", func(c *config.Config) any { return c.Sync.BlobLimit() }},
	// Once this memory encrypts: a remote that dropped a path would have
	// it stored in plain text here, one that added a recipient would read
	// what is written here. Until then a remote's are taken (guardedDiff):
	// a first sync must encrypt what the others do, and the remote had
	// the plain text anyway.
	// What this machine keeps, and whether it commits at all: a remote
	// that turned auto-commit off left remember printing ids and
	// committing nothing, and retention is what this machine deletes.
	{"checkpoint.auto", func(c *config.Config) any { return c.AutoCheckpoint() }},
	{"capture.transcripts_keep", func(c *config.Config) any { return c.Capture.TranscriptsKeep }},
	{"capture.keep_summaries_only", func(c *config.Config) any { return c.Capture.KeepSummariesOnly }},
	{"encrypt.paths", func(c *config.Config) any { return c.Encrypt.Paths }},
	{"encrypt.recipients", func(c *config.Config) any { return c.Encrypt.Recipients }},
}

// guardedDiff returns the guarded keys whose values differ between ours
// and a remote's valid configuration (absent keys read as the defaults).
func guardedDiff(oc, tc *config.Config) []string {
	var out []string
	for _, g := range guardedKeys {
		if strings.HasPrefix(g.key, "encrypt.") && !oc.Encrypt.On() {
			continue
		}
		a, b := g.get(oc), g.get(tc)
		if !reflect.DeepEqual(a, b) && !(isEmpty(a) && isEmpty(b)) {
			out = append(out, g.key)
		}
	}
	return out
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case []string:
		return len(v) == 0
	}
	return false
}

// mergeConfig merges cairn.yaml (see the rules above).
func (mg *merger) mergeConfig(f memory.MergeFile) memory.Resolution {
	if f.Path != config.File {
		// CAIRN.YAML would overwrite cairn.yaml where case is ignored.
		mg.warnings = append(mg.warnings, fmt.Sprintf("%s: not taken (it would replace %s on a file system that ignores case)", f.Path, config.File))
		if f.InOurs {
			return memory.Resolution{Data: f.Ours}
		}
		return memory.Resolution{Delete: true}
	}
	if !f.InTheirs {
		return memory.Resolution{Data: f.Ours} // never deleted by a remote
	}
	// The remote's file as a whole first: one that does not read, or
	// sets a key out of range, is never taken.
	held := func(why string) memory.Resolution {
		r := mg.conflictCopy(f)
		if !f.InOurs {
			r.Data, r.Delete = nil, true
		}
		mg.warnings = append(mg.warnings, fmt.Sprintf("%s: the remote's version %s; kept ours, theirs is in %s (cairn resolve %s --keep copy takes it)",
			config.File, why, r.Extra[0].Path, r.Extra[0].Path))
		return r
	}
	tc, err := config.Parse(f.Theirs)
	if err != nil {
		return held("is not valid (" + err.Error() + ")")
	}
	oc, _ := config.Parse(f.Ours) // ours is what runs now, valid or not
	if keys := guardedDiff(&oc, &tc); len(keys) > 0 {
		return held("sets " + strings.Join(keys, ", "))
	}
	switch {
	case bytes.Equal(f.Ours, f.Base) || !f.InOurs:
		return memory.Resolution{Data: f.Theirs}
	case bytes.Equal(f.Theirs, f.Base), bytes.Equal(f.Theirs, f.Ours):
		return memory.Resolution{Data: f.Ours}
	}
	return mg.conflictCopy(f)
}

func (mg *merger) merge(f memory.MergeFile) (memory.Resolution, error) {
	if isConfig(f.Path) {
		return mg.mergeConfig(f), nil
	}
	if purgelist.Has(mg.purged, f.Path) {
		if f.InTheirs {
			mg.warnings = append(mg.warnings, fmt.Sprintf("%s: purged (%s); %s's copy not taken", f.Path, memory.PurgedFile, mg.remote))
		}
		return memory.Resolution{Delete: true}, nil
	}
	if f.Path == memory.PurgedFile {
		return memory.Resolution{Data: unionLines(f.Ours, f.Theirs)}, nil
	}
	switch {
	case !f.InOurs:
		return memory.Resolution{Data: f.Theirs}, nil // deleted here, changed there: keep the change
	case !f.InTheirs:
		return memory.Resolution{Data: f.Ours}, nil
	}
	if crypt.IsCiphertext(f.Ours) || crypt.IsCiphertext(f.Theirs) {
		// Lines of ciphertext cannot be merged: keep both.
		return mg.conflictCopy(f), nil
	}
	dir, base := path.Split(f.Path)
	inSession := strings.HasPrefix(dir, model.SessionsRoot+"/") || strings.HasPrefix(dir, model.ArchiveRoot+"/")
	if inSession {
		switch base {
		case model.PromptsFile, model.TranscriptFile, model.ObservationsFile, model.SummaryFile:
			return memory.Resolution{Data: unionLog(f.Base, f.Ours, f.Theirs)}, nil
		case model.SessionFile:
			if data, err := mergeSession(f.Path, f.Base, f.Ours, f.Theirs); err == nil {
				return memory.Resolution{Data: data}, nil
			}
			// Unreadable on some side: keep both, as for any other file.
		}
	}
	return mg.conflictCopy(f), nil
}

// unionLines is ours followed by the lines of theirs ours lacks: both
// sides' purges hold.
func unionLines(ours, theirs []byte) []byte {
	out := append([]byte(nil), ours...)
	have := map[string]bool{}
	for _, l := range strings.Split(string(ours), "\n") {
		have[l] = true
	}
	for _, l := range strings.Split(string(theirs), "\n") {
		if l != "" && !have[l] {
			if len(out) > 0 && out[len(out)-1] != '\n' {
				out = append(out, '\n')
			}
			out = append(out, l+"\n"...)
			have[l] = true
		}
	}
	return out
}

// conflictCopy keeps ours in place and theirs beside it.
func (mg *merger) conflictCopy(f memory.MergeFile) memory.Resolution {
	ext := path.Ext(f.Path)
	stem := strings.TrimSuffix(f.Path, ext)
	name := fmt.Sprintf("%s.conflict-%s-%s%s", stem, mg.host, mg.now.UTC().Format("20060102-150405"), ext)
	for i := 2; mg.taken[name] || f.Exists != nil && f.Exists(name); i++ {
		name = fmt.Sprintf("%s.conflict-%s-%s-%d%s", stem, mg.host, mg.now.UTC().Format("20060102-150405"), i, ext)
	}
	mg.taken[name] = true
	return memory.Resolution{
		Data:     f.Ours,
		Conflict: true,
		Extra:    []memory.ExtraFile{{Path: name, Data: markConflict(f.Theirs, f.Path, mg.remote, mg.now)}},
	}
}

// markConflict adds to a Markdown file's front matter the keys that say it
// is a conflict copy (kept as unknown keys by the item codec); files
// without front matter, and other files, are kept as they are.
func markConflict(data []byte, orig, remote string, now time.Time) []byte {
	text := string(data)
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || !model.IsDelimiter(first) || !strings.HasSuffix(orig, ".md") {
		return data
	}
	yml, _, _, ok := model.CutFrontMatter(rest)
	if !ok {
		return data
	}
	mark := fmt.Sprintf("conflict_of: %q\nconflict_from: %q\nconflict_at: %s\n", orig, remote, now.UTC().Format(time.RFC3339))
	i := len(first) + 1 + len(yml)
	return []byte(text[:i] + mark + text[i:])
}

// unionLog merges an append-only log: the base, then what each side
// appended, sections (at "## " headings) in time order, each once. When
// a side did not only append (someone edited the log by hand), every
// section of ours is kept, followed by theirs' that ours lacks.
func unionLog(base, ours, theirs []byte) []byte {
	whole := len(base) == 0 || base[len(base)-1] == '\n'
	if whole && bytes.HasPrefix(ours, base) && bytes.HasPrefix(theirs, base) {
		a := sections(ours[len(base):])
		b := sections(theirs[len(base):])
		out := append([]byte{}, base...)
		// Text appended to the last section of the base comes first, ours
		// then theirs; then the new sections.
		var cont []byte
		if len(a) > 0 && !a[0].heading {
			cont = a[0].text
			out = append(out, cont...)
			a = a[1:]
		}
		if len(b) > 0 && !b[0].heading {
			if cont == nil {
				out = append(out, b[0].text...)
			} else if !bytes.Equal(b[0].text, cont) {
				out = appendSep(out, b[0].text)
			}
			b = b[1:]
		}
		seen := map[string]bool{}
		for _, s := range a {
			seen[string(s.text)] = true
		}
		var bb []section
		for _, s := range b {
			if !seen[string(s.text)] {
				bb = append(bb, s)
			}
		}
		for _, s := range interleave(a, bb) {
			out = appendSep(out, s.text)
		}
		return out
	}
	out := append([]byte{}, ours...)
	seen := map[string]bool{}
	for _, s := range sections(ours) {
		seen[string(s.text)] = true
	}
	for _, s := range sections(theirs) {
		if !seen[string(s.text)] {
			out = appendSep(out, s.text)
			seen[string(s.text)] = true
		}
	}
	return out
}

// appendSep appends a section, making sure it starts on a line of its
// own.
func appendSep(out, text []byte) []byte {
	if len(out) > 0 && out[len(out)-1] != '\n' && !bytes.HasPrefix(text, []byte("\n")) {
		out = append(out, '\n')
	}
	return append(out, text...)
}

type section struct {
	text    []byte
	heading bool   // starts with a "## " heading
	key     string // the time in its heading, or the previous section's
}

// sections cuts a log at its level-2 headings; the blank lines before a
// heading belong to its section, as capture writes them.
func sections(b []byte) []section {
	var out []section
	start := 0
	key := ""
	flush := func(end int) {
		if end <= start {
			return
		}
		t := b[start:end]
		lead := bytes.TrimLeft(t, "\n")
		s := section{text: t, heading: bytes.HasPrefix(lead, []byte("## "))}
		if s.heading {
			line, _, _ := bytes.Cut(lead, []byte("\n"))
			if m := stampRe.Find(line); m != nil {
				key = strings.Replace(string(m), "T", " ", 1)
			}
		}
		s.key = key
		out = append(out, s)
	}
	blank := -1 // where the run of blank lines before i began
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\n')
		next := len(b)
		if j >= 0 {
			next = i + j + 1
		}
		if bytes.HasPrefix(b[i:], []byte("## ")) {
			cut := i
			if blank >= 0 {
				cut = blank
			}
			if cut > start {
				flush(cut)
				start = cut
			}
		}
		if j == 0 {
			if blank < 0 {
				blank = i
			}
		} else {
			blank = -1
		}
		i = next
	}
	flush(len(b))
	return out
}

// interleave merges two lists of sections by time, keeping each list's
// own order; sections without a time follow the one before them.
func interleave(a, b []section) []section {
	out := make([]section, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].key != "" && a[0].key != "" && b[0].key < a[0].key {
			out = append(out, b[0])
			b = b[1:]
			continue
		}
		out = append(out, a[0])
		a = a[1:]
	}
	out = append(out, a...)
	return append(out, b...)
}

// mergeSession merges session.yaml field by field.
func mergeSession(name string, base, ours, theirs []byte) ([]byte, error) {
	o, err := model.ParseSession(name, ours)
	if err != nil {
		return nil, err
	}
	t, err := model.ParseSession(name, theirs)
	if err != nil {
		return nil, err
	}
	b := &model.Session{}
	if len(base) > 0 {
		if b, err = model.ParseSession(name, base); err != nil {
			b = &model.Session{}
		}
	}
	theirsLater := t.Updated.After(o.Updated)
	pick := func(bv, ov, tv string) string {
		switch {
		case ov == tv, tv == bv:
			return ov
		case ov == bv:
			return tv
		case theirsLater:
			return tv
		}
		return ov
	}
	m := *o
	m.MemorySession = pick(b.MemorySession, o.MemorySession, t.MemorySession)
	m.Agent = pick(b.Agent, o.Agent, t.Agent)
	m.Status = model.SessionStatus(pick(string(b.Status), string(o.Status), string(t.Status)))
	m.Title = pick(b.Title, o.Title, t.Title)
	m.Project = pick(b.Project, o.Project, t.Project)
	m.Branch = pick(b.Branch, o.Branch, t.Branch)
	m.Model = pick(b.Model, o.Model, t.Model)
	m.Prompts = max(o.Prompts, t.Prompts)
	m.Turns = max(o.Turns, t.Turns)
	m.Progress.Done = max(o.Progress.Done, t.Progress.Done)
	m.Progress.Total = max(o.Progress.Total, t.Progress.Total)
	m.Started = earliest(o.Started, t.Started)
	m.Updated = latest(o.Updated, t.Updated)
	m.LastActivity = latest(o.LastActivity, t.LastActivity)
	if t.Summarized.Turns > o.Summarized.Turns || t.Summarized.Turns == o.Summarized.Turns && t.Summarized.Segments > o.Summarized.Segments {
		m.Summarized = t.Summarized
	}
	m.Summarized.Segments = max(o.Summarized.Segments, t.Summarized.Segments)

	// Variables: per key, the side that changed it.
	vars := map[string]string{}
	keys := map[string]bool{}
	for _, vs := range []map[string]string{b.Variables, o.Variables, t.Variables} {
		for k := range vs {
			keys[k] = true
		}
	}
	for k := range keys {
		bv, bok := b.Variables[k]
		ov, ook := o.Variables[k]
		tv, tok := t.Variables[k]
		switch {
		case ook == tok && ov == tv, tok == bok && tv == bv:
			if ook {
				vars[k] = ov
			}
		case ook == bok && ov == bv:
			if tok {
				vars[k] = tv
			}
		case theirsLater && tok, !ook:
			vars[k] = tv
		default:
			vars[k] = ov
		}
	}
	m.Variables = nil
	if len(vars) > 0 {
		m.Variables = vars
	}

	// Sources: union by name, the one read further wins.
	m.Sources = append([]model.Source{}, o.Sources...)
	for _, ts := range t.Sources {
		found := false
		for i := range m.Sources {
			if m.Sources[i].Name == ts.Name {
				found = true
				if ts.Offset > m.Sources[i].Offset {
					m.Sources[i] = ts
				}
			}
		}
		if !found {
			m.Sources = append(m.Sources, ts)
		}
	}
	sort.SliceStable(m.Sources, func(i, j int) bool { return m.Sources[i].Name < m.Sources[j].Name })

	// Hooks: union, the newest model.MaxHookKeys.
	m.Hooks = append([]string{}, o.Hooks...)
	have := map[string]bool{}
	for _, h := range o.Hooks {
		have[h] = true
	}
	for _, h := range t.Hooks {
		if !have[h] {
			m.Hooks = append(m.Hooks, h)
			have[h] = true
		}
	}
	if len(m.Hooks) > model.MaxHookKeys {
		m.Hooks = m.Hooks[len(m.Hooks)-model.MaxHookKeys:]
	}
	m.KeepExtra(o, t)
	return m.Marshal()
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
