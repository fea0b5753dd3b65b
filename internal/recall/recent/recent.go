package recent

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/supersede"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/backlog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Session is a session the pack may show.
type Session struct {
	Dir, ID string // its folder ("sessions/ID") and id
	Title   string
	When    time.Time
	Digest  *digest.Summary
	Turns   []string // turns no summary covers yet, as list lines, oldest first
	State   []string // progress and variables, as list lines
	Current bool     // the session the pack was asked about

	// replaced is what its summary says was replaced (supersede.By),
	// read once: each older session of a pack is checked against it.
	replaced     []supersede.Value
	replacedRead bool
}

// minSubstanceTurns is the least number of unsummarised turns, a user
// prompt among them, that makes a session without a summary worth a
// place: a prompt and its answer.
const minSubstanceTurns = 2

// maxScanSessions bounds how many folders the pack looks into to find
// sessions with substance: /clear leaves empty sessions behind, and a
// run of them must not hide the real ones.
const maxScanSessions = 60

// Latest returns up to n sessions of sessions/ with substance
// (a summary saying what was asked or done, or enough turns not yet
// summarised), the one changed last first, leaving out skip. What a
// session without substance quotes as no longer true still holds: it
// goes to the next session listed, as quoted by a newer one
// (digest.Summary.NewerUntrue).
func Latest(m *memory.Memory, skip string, n int) []*Session {
	var out []*Session
	var quotes []string
	for i, dir := range folders(m) {
		if len(out) == n || i == maxScanSessions {
			break
		}
		if dir == skip {
			continue
		}
		s := Load(m, dir)
		switch {
		case s == nil:
		case s.Substantial():
			s.Digest.NewerUntrue = append(s.Digest.NewerUntrue, quotes...)
			quotes = nil
			out = append(out, s)
		default:
			quotes = append(quotes, s.Digest.Untrue...)
		}
	}
	return out
}

// Newest returns the folder of sessions/ changed last ("sessions/ID")
// and its session's id, with or without substance: during a session,
// its own. "" when there is none.
func Newest(m *memory.Memory) (dir, id string) {
	f := folders(m)
	if len(f) == 0 {
		return "", ""
	}
	return f[0], strings.TrimPrefix(f[0], "sessions/")
}

func (s *Session) Substantial() bool {
	return s.Digest.Substantial() || len(s.Turns) >= minSubstanceTurns
}

// folders lists the folders of sessions/, the one changed last
// first. A folder's modification time moves with every file cairn
// writes in it, since it writes by renaming.
func folders(m *memory.Memory) []string {
	ents, err := os.ReadDir(filepath.Join(m.Dir, "sessions"))
	if err != nil {
		return nil
	}
	type sess struct {
		dir string
		mod time.Time
	}
	var all []sess
	for _, e := range ents {
		if e.Type()&fs.ModeSymlink != 0 {
			m.WarnLink(&safefile.LinkError{Path: "sessions/" + e.Name()})
			continue
		}
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		all = append(all, sess{"sessions/" + e.Name(), fi.ModTime()})
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].mod.Equal(all[j].mod) {
			return all[i].mod.After(all[j].mod)
		}
		return all[i].dir > all[j].dir
	})
	out := make([]string, len(all))
	for i, s := range all {
		out[i] = s.dir
	}
	return out
}

// Load reads what the pack shows of the session in dir: its
// summary, the turns no summary covers yet, its state; nil if the folder
// holds none of them.
func Load(m *memory.Memory, dir string) *Session {
	_, sid := docs.SessionDir(dir + "/x")
	s := &Session{Dir: dir, ID: sid, Digest: &digest.Summary{}}
	data, err := m.ReadFile(dir + "/summary.md")
	m.WarnLink(err) // a link is named and left out
	if err == nil {
		s.Digest = digest.Parse(summaryBody(data))
		s.Digest.DropWaste()
	}
	sp := dir + "/" + model.SessionFile
	var sess *model.Session
	if data, err := m.ReadFile(sp); err == nil {
		if ps, err := model.ParseSession(sp, data); err == nil {
			sess = ps
		}
	}
	if sess != nil {
		s.Title = mdtext.OneLine(sess.Title)
		for _, t := range []time.Time{sess.Started, sess.Updated, sess.LastActivity} {
			if !t.IsZero() {
				s.When = t
				break
			}
		}
		if sess.Progress.Total > 0 {
			s.State = append(s.State, "- Progress: "+strconv.Itoa(sess.Progress.Done)+" of "+strconv.Itoa(sess.Progress.Total)+" steps done\n")
		}
		keys := make([]string, 0, len(sess.Variables))
		for k := range sess.Variables {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s.State = append(s.State, "- Variable "+k+": "+digest.Shorten(sess.Variables[k], 40)+"\n")
		}
		if turns, err := m.Sessions().LoadPending(sid, sess.Summarized.Through); err == nil {
			prompts := 0
			_, turns = backlog.SplitContext(turns) // summarised already
			for _, t := range turns {
				if l := digest.TurnLine(t.Turn); l != "" {
					s.Turns = append(s.Turns, l)
					if t.Turn.Role == summarize.User {
						prompts++
					}
				}
			}
			if prompts == 0 {
				s.Turns = nil // tool calls alone say too little to take a place
			}
		}
	}
	if s.When.IsZero() {
		if fi, err := os.Stat(filepath.Join(m.Dir, filepath.FromSlash(dir))); err == nil {
			s.When = fi.ModTime().UTC()
		}
	}
	if s.Title == "" {
		s.Title = s.defaultTitle()
	}
	return s
}

// defaultTitle names a session without a title by its first request.
func (s *Session) defaultTitle() string {
	var first string
	if r := s.Digest.Parts[digest.Request]; len(r) > 0 {
		first = r[0]
	} else if o := s.Digest.Parts[digest.Outcome]; len(o) > 0 {
		first = o[0]
	} else if n := s.Digest.Parts[digest.Notes]; len(n) > 0 {
		first = n[0]
	} else {
		for _, t := range s.Turns {
			if rest, ok := strings.CutPrefix(t, "- user: "); ok {
				first = strings.TrimSpace(rest)
				break
			}
		}
	}
	if first == "" {
		return "Session"
	}
	if ss := digest.Sentences(first); len(ss) > 0 {
		first = ss[0]
	}
	first = strings.TrimRight(first, ".!?: ")
	if len([]rune(first)) > 80 {
		first = digest.CutClause(first, 16)
	}
	return first
}

// summaryBody is summary.md without its front matter, headings made bold
// so that they do not break the pack's outline.
func summaryBody(data []byte) string {
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	if first, rest, ok := strings.Cut(text, "\n"); ok && model.IsDelimiter(first) {
		if _, body, _, ok := model.CutFrontMatter(rest); ok {
			text = body
		}
	}
	return text
}

// Rank is the rank of a core item from session id (or none) last
// updated at t: that of its session, older than all of them when its
// session is not among them (they are the latest), else that of the
// newest session that started at or before t.
func Rank(sessions []*Session, id string, t time.Time) int {
	if id != "" {
		for k, s := range sessions {
			if s.ID == id {
				return k
			}
		}
		return len(sessions)
	}
	for k, s := range sessions {
		if !s.When.After(t) {
			return k
		}
	}
	return len(sessions)
}

// ReplacedBy is supersede.By(Digests(sessions)), each session's summary
// read once per pack rather than once per older session (45 times for
// the ten a pack considers): By lists the summaries' values in order.
func ReplacedBy(sessions []*Session) []supersede.Value {
	var out []supersede.Value
	for _, s := range sessions {
		if !s.replacedRead {
			s.replaced, s.replacedRead = supersede.By([]*digest.Summary{s.Digest}), true
		}
		out = append(out, s.replaced...)
	}
	return out
}

// Digests are the sessions' summaries, in their order.
func Digests(sessions []*Session) []*digest.Summary {
	out := make([]*digest.Summary, len(sessions))
	for i, s := range sessions {
		out[i] = s.Digest
	}
	return out
}

// Text is what the session's bullets say, but for its lists of files and
// commands.
func (s *Session) Text() string {
	var b strings.Builder
	for p, bullets := range s.Digest.Parts {
		if p == int(digest.Files) || p == int(digest.Commands) || p == int(digest.Read) {
			continue
		}
		for _, l := range bullets {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
