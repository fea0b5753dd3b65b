package docs

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/indexer"
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

// Document turns a file into what the indexer takes. It never fails: a
// file whose front matter does not parse is indexed as plain text.
//
// A session's files are dated by the session (its session.yaml), and
// each of their chunks is headed by a line naming the session and its
// day, "Session 7 · 2024-11-28", with the speakers of a transcript after
// them: a chunk of a few turns then says when, and between whom, it was
// said. A transcript is a dialogue: the indexer cuts it into a few turns
// a chunk (indexer.SplitDialogue).
func Document(p string, data []byte, sessions *Sessions) indexer.Document {
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
	if sf, ok := sessionFiles[base]; ok && sdir != "" && doc.Kind == sf.kind {
		doc.Header = header(sid, doc.Created, doc.Body, base == model.TranscriptFile)
		doc.Dialogue = base == model.TranscriptFile
	}
	return doc
}

var (
	// sessionHeading is how a transcript of a dialogue names its session
	// ("## Session 7 · 2024-11-28 21:10:00 UTC", capture's say).
	sessionHeading = regexp.MustCompile(`(?m)^## Session (\d+)\b`)
	// speakerLabel is a turn's bold speaker ("**Maya:** ...").
	speakerLabel = regexp.MustCompile(`(?m)^\*\*([^*\n]{1,64}?)(?::\*\*|\*\*\s*:)`)
	// promptHeading is a prompt of an agent's session ("## Prompt 3").
	promptHeading = regexp.MustCompile(`(?m)^## Prompt \d+`)
)

// header is the line that heads each chunk of a session's file: the
// session, its day, and for a transcript the speakers in the order they
// first speak.
func header(sid string, day time.Time, body string, speakers bool) string {
	parts := []string{"Session " + memory.ShortSession(sid)}
	if m := sessionHeading.FindStringSubmatch(body); m != nil {
		parts[0] = "Session " + m[1]
	}
	if !day.IsZero() {
		parts = append(parts, day.UTC().Format(time.DateOnly))
	}
	if speakers {
		var names []string
		seen := map[string]bool{}
		if promptHeading.MatchString(body) {
			names, seen["User"] = append(names, "User"), true
		}
		for _, m := range speakerLabel.FindAllStringSubmatch(body, 64) {
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
	files map[string]bool // dir/name: whether the file is there
}

func NewSessions(root string) *Sessions {
	return &Sessions{root: root, seen: make(map[string][2]time.Time), files: make(map[string]bool)}
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
		if ss, err := model.ParseSession(dir, b); err == nil {
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
