package docs

import (
	"fmt"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Indexable reports whether a repository path belongs in the index:
// Markdown files under core/, sessions/ and archive/ whose names do not
// start with a dot (editors' and cairn's temporary files).
func Indexable(p string) bool {
	if !strings.HasSuffix(p, ".md") {
		return false
	}
	first, _, _ := strings.Cut(p, "/")
	if first != "core" && first != "sessions" && first != "archive" {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// Session files: their kind, the title they are given and their
// importance (transcripts are the noisiest, summaries the densest).
var sessionFiles = map[string]struct {
	kind, label string
	importance  float64
}{
	"summary.md":      {"summary", "Summary", 0.6},
	"observations.md": {"observation", "Observations", 0.4},
	"prompts.md":      {"prompt", "Prompts", 0.4},
	"transcript.md":   {"transcript", "Transcript", 0.3},
}

// SessionDir returns the session folder a path is in ("" if none) and
// the session's id: sessions/<id>/... or archive/<yyyy>/<mm>/<id>/...
func SessionDir(p string) (dir, id string) {
	parts := strings.Split(p, "/")
	switch {
	case parts[0] == "sessions" && len(parts) >= 3:
		return strings.Join(parts[:2], "/"), parts[1]
	case parts[0] == "archive" && len(parts) >= 5:
		return strings.Join(parts[:4], "/"), parts[3]
	}
	return "", ""
}

// Repeated reports whether p is a session's prompts.md while the session
// has a transcript.md: the transcript holds every prompt too, and a
// prompt indexed twice would be two hits of the same text. A session
// with prompts alone (an agent whose transcript cairn does not keep) has
// them indexed.
func Repeated(p string, sessions *Sessions) bool {
	sdir, _ := SessionDir(p)
	return sdir != "" && path.Base(p) == model.PromptsFile && sessions.has(sdir, model.TranscriptFile)
}

// Document turns a file into what the indexer takes, or reports (ok
// false) that the file adds nothing to the index: a prompts.md its
// session's transcript repeats (Repeated), an observations.md without
// observations, a summary all of whose lines the transcript holds. It
// never fails: a file whose front matter does not parse is indexed as
// plain text.
//
// A session's files are dated by the session (its session.yaml), and
// each of their chunks is headed by a line naming the session and its
// day, "Session 7 · 2024-11-28", with the speakers of a transcript after
// them: a chunk of a few turns then says when, and between whom, it was
// said. A transcript is cut into a few turns a chunk
// (indexer.ByTurns), a summary into its sections, whose lines
// that quote the transcript are left out: a turn is found in one place.
// An age file (internal/crypt) is not a document.
func Document(p string, data []byte, sessions *Sessions) (doc indexer.Document, ok bool) {
	// A file encrypted for others, on a machine without their key, is
	// ciphertext in the work tree: nothing to search.
	if Repeated(p, sessions) || crypt.IsCiphertext(data) {
		return indexer.Document{}, false
	}
	doc = document(p, data, sessions)
	sdir, _ := SessionDir(p)
	if sdir == "" || !isSessionLog(doc.Kind, path.Base(p)) {
		return doc, true
	}
	switch path.Base(p) {
	case model.TranscriptFile:
		doc.Cut = indexer.ByTurns
	case model.SummaryFile:
		doc.Cut = indexer.BySection
		if tr := sessions.transcript(sdir); tr != "" {
			doc.Body = dropQuoted(doc.Body, tr)
		}
	case model.ObservationsFile:
		if !strings.Contains("\n"+doc.Body, "\n- ") {
			return doc, false // no observation: the file's title and preamble alone
		}
	}
	return doc, path.Base(p) != model.SummaryFile || hasText(doc.Body)
}

// hasText reports whether body has a line that is neither blank, nor a
// heading, nor a bold label alone: whether a summary says anything.
func hasText(body string) bool {
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "#") && !(strings.HasPrefix(t, "**") && strings.HasSuffix(strings.TrimSuffix(t, ":"), "**")) {
			return true
		}
	}
	return false
}

// isSessionLog reports whether a file of a session's folder, of kind, is
// one of the logs cairn writes (not an item filed there).
func isSessionLog(kind, base string) bool {
	sf, ok := sessionFiles[base]
	return ok && kind == sf.kind
}

// dropQuoted blanks the lines of body whose text (after a list marker
// and a speaker's "Name: ") the transcript holds word for word, keeping
// the line numbers: a summary made of sentences picked from the turns
// would otherwise be hits that repeat the transcript's.
func dropQuoted(body, transcript string) string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		t = strings.TrimSpace(strings.TrimLeft(t, "-*+ "))
		if m := speakerPrefix.FindStringIndex(t); m != nil {
			t = t[m[1]:]
		}
		if t = normal(t); len(t) >= 20 && strings.Contains(transcript, t) {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// speakerPrefix is "Maya: " at the start of a summary's bullet.
var speakerPrefix = lazyre.New(`^[\p{Lu}][\p{L}.' -]{0,40}: `)

// normal is text lower-cased, without emphasis marks, its runs of white
// space one space: how quoted text is compared.
func normal(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "*", ""))), " ")
		}
	}
	// ASCII, in one pass: a session's transcript is made normal once for
	// its summary's lines, and four passes were a fiftieth of a first build.
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*':
		case ' ', '\t', '\n', '\v', '\f', '\r':
			space = b.Len() > 0
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// document is Document without the session logs' special cases.
func document(p string, data []byte, sessions *Sessions) indexer.Document {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	base := path.Base(p)
	sdir, sid := SessionDir(p)
	doc := indexer.Document{Path: p, Layer: string(model.LayerOf(p)), Session: sid, Importance: model.DefaultImportance, Body: text, FirstLine: 1}

	// The body starts after the front matter, if there is one.
	front := false
	if first, rest, ok := strings.Cut(text, "\n"); ok && model.IsDelimiter(first) {
		if _, body, end, ok := model.CutFrontMatter(rest); ok {
			doc.Body, doc.FirstLine, front = body, end+1, true
		}
	}
	it, err := model.Parse(p, data)
	switch {
	case err == nil && front:
		doc.Title, doc.Kind, doc.Tags = it.Title, string(it.Kind), it.Tags
		doc.Created, doc.Updated, doc.Importance = it.Created, it.Updated, it.Importance
		if doc.Session == "" {
			doc.Session = it.Session
		}
	case err == nil:
		doc.Title, doc.Created, doc.Updated = it.Title, it.Created, it.Updated
	default:
		// Broken front matter: all of the file is text.
		doc.Body, doc.FirstLine = text, 1
		name, _, _ := strings.Cut(strings.TrimSuffix(base, ".md"), "--")
		doc.Title = strings.ReplaceAll(name, "-", " ")
	}
	if sf, ok := sessionFiles[base]; ok && sdir != "" {
		if !front || err != nil {
			doc.Kind, doc.Importance = sf.kind, sf.importance
			doc.Title = sf.label + " of session " + memory.ShortSession(sid)
		}
	}
	if doc.Kind == "" {
		doc.Kind = string(model.Note)
		if parts := strings.Split(p, "/"); parts[0] == "core" && len(parts) > 2 {
			if k, err := model.ParseKind(parts[1]); err == nil {
				doc.Kind = string(k)
			}
		}
	}
	if doc.Title == "" {
		doc.Title = strings.TrimSuffix(base, ".md")
	}
	if doc.Created.IsZero() && sdir != "" {
		doc.Created, doc.Updated = sessions.Get(sdir)
	}
	if sdir != "" && isSessionLog(doc.Kind, base) {
		if base == model.TranscriptFile {
			sessions.seed(sdir, text) // read already: not again for its summary
		}
		doc.Header = header(sid, doc.Created, doc.Body, sessions.transcript(sdir), base == model.TranscriptFile)
	}
	return doc
}

// The patterns below that match at a line's start are anchored at the
// start of the text and tried only where a line starts with their
// literal beginning (by lineMatches): (?m)^ would have Go's regexp try
// every position of a long transcript, a tenth of a first build's time.
var (
	// sessionHeading is how a transcript of a dialogue names its session
	// ("## Session 7 · 2024-11-28 21:10:00 UTC", capture's say).
	sessionHeading = lazyre.New(`^## Session (\d+)\b`)
	// sessionNumber is sessionHeading in normal text.
	sessionNumber = lazyre.New(`## session (\d+)\b`)
	// speakerLabel is a turn's bold speaker ("**Maya:** ...").
	speakerLabel = lazyre.New(`^\*\*([^*\n]{1,64}?)(?::\*\*|\*\*\s*:)`)
	// promptHeading is a prompt of an agent's session ("## Prompt 3").
	promptHeading = lazyre.New(`^## Prompt \d+`)
)

// lineMatches returns the leftmost non-overlapping matches (at most n, n
// < 0 for all) of re, a pattern anchored by ^ whose matches begin with
// lit, at the starts of s's lines: what re's pattern with (?m) would
// find in s, trying it only where a line starts with lit.
func lineMatches(s, lit string, re *lazyre.Regexp, n int) [][]string {
	var out [][]string
	for at := 0; n < 0 || len(out) < n; {
		i := strings.Index(s[at:], lit)
		if i < 0 {
			break
		}
		i += at
		at = i + 1
		if i > 0 && s[i-1] != '\n' {
			continue
		}
		loc := re.FindStringSubmatchIndex(s[i:])
		if loc == nil {
			continue
		}
		m := make([]string, len(loc)/2)
		for k := range m {
			if loc[2*k] >= 0 {
				m[k] = s[i+loc[2*k] : i+loc[2*k+1]]
			}
		}
		out = append(out, m)
		at = i + max(loc[1], 1)
	}
	return out
}

// header is the line that heads each chunk of a session's file: the
// session (by the number its transcript gives it, transcript being the
// normal text, else by its short id), its day, and for a transcript the
// speakers in the order they first speak.
func header(sid string, day time.Time, body, transcript string, speakers bool) string {
	parts := []string{"Session " + memory.ShortSession(sid)}
	if m := lineMatches(body, "## Session ", sessionHeading, 1); m != nil {
		parts[0] = "Session " + m[0][1]
	} else if m := sessionNumber.FindStringSubmatch(transcript); m != nil {
		parts[0] = "Session " + m[1]
	}
	if !day.IsZero() {
		parts = append(parts, day.UTC().Format(time.DateOnly))
	}
	if speakers {
		var names []string
		seen := map[string]bool{}
		if lineMatches(body, "## Prompt ", promptHeading, 1) != nil {
			names, seen["User"] = append(names, "User"), true
		}
		for _, m := range lineMatches(body, "**", speakerLabel, 64) {
			if name := strings.TrimSpace(m[1]); !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			parts = append(parts, strings.Join(names, ", "))
		}
	}
	return strings.Join(parts, " · ")
}

// Sessions reads what documents need to know of the sessions of the
// memory in root: when each started and last showed activity (from its
// session.yaml, once per session; an archived session without one is
// dated by its archive folder's month), and which files it has.
type Sessions struct {
	root  string
	seen  map[string][2]time.Time
	files map[string]bool   // dir/name: whether the file is there
	texts map[string]string // dir: its transcript, normal
	raw   map[string]string // dir: the text texts holds the normal form of
}

func NewSessions(root string) *Sessions {
	return &Sessions{root: root, seen: make(map[string][2]time.Time), files: make(map[string]bool), texts: make(map[string]string), raw: make(map[string]string)}
}

// transcript returns the transcript of the session in dir as normal
// text, "" if it has none.
func (s *Sessions) transcript(dir string) string {
	t, ok := s.texts[dir]
	if !ok {
		if b, err := safefile.ReadInRoot(s.root, dir+"/"+model.TranscriptFile); err == nil { // not through a link
			s.seed(dir, string(b))
			return s.texts[dir]
		}
		s.texts[dir] = t
	}
	return t
}

// seed makes text the transcript of the session in dir, normalised once
// for the same text.
func (s *Sessions) seed(dir, text string) {
	if raw, ok := s.raw[dir]; !ok || raw != text {
		s.texts[dir], s.raw[dir] = normal(text), text
	}
}

// has reports whether the session in dir has a regular file name (not
// through a link).
func (s *Sessions) has(dir, name string) bool {
	p := dir + "/" + name
	ok, known := s.files[p]
	if !known {
		fi, err := safefile.LstatInRoot(s.root, p)
		ok = err == nil && fi.Mode().IsRegular()
		s.files[p] = ok
	}
	return ok
}

func (s *Sessions) Get(dir string) (created, updated time.Time) {
	if t, ok := s.seen[dir]; ok {
		return t[0], t[1]
	}
	if b, err := safefile.ReadInRoot(s.root, dir+"/"+model.SessionFile); err == nil { // not through a link
		ss, ok := sessionTimes(b)
		if !ok {
			if parsed, err := model.ParseSession(dir, b); err == nil {
				ss, ok = *parsed, true
			}
		}
		if ok {
			// Its last event dates it, not when cairn last wrote it: a
			// conversation ingested today took place when its turns say.
			created, updated = ss.Started, ss.LastActivity
			if updated.IsZero() {
				updated = ss.LastSeen()
			}
		}
	}
	if created.IsZero() {
		// archive/<yyyy>/<mm>/<id>
		var y, mo int
		if _, err := fmt.Sscanf(dir, "archive/%d/%d/", &y, &mo); err == nil && y > 1970 && mo >= 1 && mo <= 12 {
			created = time.Date(y, time.Month(mo), 1, 0, 0, 0, 0, time.UTC)
		}
	}
	if updated.IsZero() {
		updated = created
	}
	s.seen[dir] = [2]time.Time{created, updated}
	return created, updated
}
