package recall

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
	"github.com/cairn-mem/cairn/internal/recall/prose"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// The parts of a session's summary the pack knows, by the bold headings
// of summary.md (docs/formats.md): each segment has "**Request**",
// "**Outcome**", "**Root causes**" and so on, followed by "- " bullets.
// Older summaries ("**Done**", "**Notes**", free prose) are read too.
const (
	partRequest = iota
	partOutcome
	partRoot
	partDecisions
	partRejected
	partPreferences
	partEnvironment
	partOpen
	partFiles
	partErrors
	partCommands
	partNotes
	partRead
	numParts
)

// partLabels label a part's bullets in the pack.
var partLabels = [numParts]string{
	"Request", "Outcome", "Root cause", "Decision", "Rejected", "Preference", "Environment",
	"Open", "Files changed", "Error", "Command", "Note", "Files read",
}

// partOf names the part a summary heading starts, by its first words.
func partOf(heading string) int {
	h := strings.ToLower(strings.Trim(heading, " *:"))
	switch {
	case strings.HasPrefix(h, "request"), strings.HasPrefix(h, "asked"):
		return partRequest
	case strings.HasPrefix(h, "outcome"), strings.HasPrefix(h, "done"), strings.HasPrefix(h, "result"):
		return partOutcome
	case strings.HasPrefix(h, "root cause"), strings.HasPrefix(h, "cause"):
		return partRoot
	case strings.HasPrefix(h, "decision"):
		return partDecisions
	case strings.HasPrefix(h, "rejected"):
		return partRejected
	case strings.HasPrefix(h, "preference"), strings.HasPrefix(h, "instruction"):
		return partPreferences
	case strings.HasPrefix(h, "environment"):
		return partEnvironment
	case strings.HasPrefix(h, "open"), strings.HasPrefix(h, "not yet answered"):
		return partOpen
	case strings.HasPrefix(h, "files changed"):
		return partFiles
	case strings.HasPrefix(h, "files read"):
		return partRead
	case strings.HasPrefix(h, "errors"):
		return partErrors
	case strings.HasPrefix(h, "commands"):
		return partCommands
	}
	return partNotes
}

// digest is what a session's summary says, over all its segments.
type digest struct {
	parts [numParts][]string // bullets, whole, in order, without repeats
	// open is the last segment's Open: what is still open at the end.
	open []string
}

// substantial reports whether the summary says what was asked or done.
func (d *digest) substantial() bool {
	return len(d.parts[partRequest])+len(d.parts[partOutcome])+len(d.parts[partNotes]) > 0
}

// boldHeading matches a line that is a bold heading, with an optional
// count and inline text: "**Files read** (3): a.go, b.go".
var boldHeading = regexp.MustCompile(`^\*\*([^*]+)\*\*\s*(\([^)]*\))?:?\s*(.*)$`)

// parseSummary reads summary.md's body (front matter removed).
func parseSummary(text string) *digest {
	d := &digest{}
	seen := make(map[string]bool)
	part := partNotes
	var segOpen []string
	inSegment := false
	var cur *string // the bullet a continuation line extends
	add := func(p int, s string) {
		s = mdtext.OneLine(s)
		if s == "" || strings.HasPrefix(s, "…") || strings.HasPrefix(s, "...") || s == "(no summary)" {
			return // "… and 3 more": a count, not a statement
		}
		if p == partNotes {
			// "(fact) Reports are cached": the kind says nothing here.
			if rest, ok := strings.CutPrefix(s, "("); ok {
				if kind, after, ok := strings.Cut(rest, ") "); ok && !strings.Contains(kind, " ") {
					s = after
				}
			}
		}
		if p == partOpen {
			segOpen = append(segOpen, s)
			cur = &segOpen[len(segOpen)-1]
			return
		}
		key := string(rune('a'+p)) + strings.ToLower(s)
		if seen[key] {
			cur = nil
			return
		}
		seen[key] = true
		d.parts[p] = append(d.parts[p], s)
		cur = &d.parts[p][len(d.parts[p])-1]
	}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "#"):
			// A segment starts: its Open replaces the last one's.
			if strings.Contains(strings.ToLower(trim), "segment") || !inSegment {
				segOpen, inSegment = nil, true
			}
			part, cur = partNotes, nil
		case trim == "":
			cur = nil
		case boldHeading.MatchString(trim):
			mm := boldHeading.FindStringSubmatch(trim)
			part, cur = partOf(mm[1]), nil
			if mm[3] != "" {
				add(part, mm[3])
			}
		case strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* "):
			add(part, trim[2:])
		case cur != nil && strings.HasPrefix(line, " "):
			*cur += " " + trim
		default:
			// Prose: each sentence a note of its own, so that the pack
			// can drop the last ones.
			for _, s := range prose.Sentences(trim) {
				add(partNotes, s)
			}
			cur = nil
		}
	}
	d.open = segOpen
	return d
}

// dropWaste leaves out what says nothing about the work: requests that
// are only thanks or "anything else?", and the "No response requested."
// Claude Code records after a slash command.
func (d *digest) dropWaste() {
	for p, bullets := range d.parts {
		out := bullets[:0]
		for _, b := range bullets {
			if noResponse(b) || (p == partRequest && isChitChat(b)) {
				continue
			}
			out = append(out, b)
		}
		d.parts[p] = out
	}
	out := d.open[:0]
	for _, o := range d.open {
		if !noResponse(o) {
			out = append(out, o)
		}
	}
	d.open = out
}

// sessionInfo is a session the pack may show.
type sessionInfo struct {
	dir, id string
	title   string
	when    time.Time
	digest  *digest
	turns   []string // turns no summary covers yet, as list lines, oldest first
	state   []string // progress and variables, as list lines
	current bool     // the session named by ContextOptions.Session

	allKeys, mentionKeys map[string]bool // see keys and mentions
}

// minSubstanceTurns is the least number of unsummarised turns, a user
// prompt among them, that makes a session without a summary worth a
// place: a prompt and its answer.
const minSubstanceTurns = 2

// maxScanSessions bounds how many folders the pack looks into to find
// sessions with substance: /clear leaves empty sessions behind, and a
// run of them must not hide the real ones.
const maxScanSessions = 60

// latestSessions returns up to n sessions of sessions/ with substance
// (a summary saying what was asked or done, or enough turns not yet
// summarised), the one changed last first, leaving out skip.
func latestSessions(m *memory.Memory, skip string, n int) []*sessionInfo {
	var out []*sessionInfo
	for i, dir := range sessionFolders(m) {
		if len(out) == n || i == maxScanSessions {
			break
		}
		if dir == skip {
			continue
		}
		if s := loadSession(m, dir); s != nil && s.substantial() {
			out = append(out, s)
		}
	}
	return out
}

func (s *sessionInfo) substantial() bool {
	return s.digest.substantial() || len(s.turns) >= minSubstanceTurns
}

// sessionFolders lists the folders of sessions/, the one changed last
// first. A folder's modification time moves with every file cairn
// writes in it, since it writes by renaming.
func sessionFolders(m *memory.Memory) []string {
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

// loadSession reads what the pack shows of the session in dir: its
// summary, the turns no summary covers yet, its state; nil if the folder
// holds none of them.
func loadSession(m *memory.Memory, dir string) *sessionInfo {
	_, sid := docs.SessionDir(dir + "/x")
	s := &sessionInfo{dir: dir, id: sid, digest: &digest{}}
	if data, err := readMemory(m, dir+"/summary.md"); err == nil {
		s.digest = parseSummary(summaryBody(data))
		s.digest.dropWaste()
	}
	sp := dir + "/" + model.SessionFile
	var sess *model.Session
	if data, err := m.ReadFile(sp); err == nil {
		if ps, err := model.ParseSession(sp, data); err == nil {
			sess = ps
		}
	}
	if sess != nil {
		s.title = mdtext.OneLine(sess.Title)
		for _, t := range []time.Time{sess.Started, sess.Updated, sess.LastActivity} {
			if !t.IsZero() {
				s.when = t
				break
			}
		}
		if sess.Progress.Total > 0 {
			s.state = append(s.state, "- Progress: "+strconv.Itoa(sess.Progress.Done)+" of "+strconv.Itoa(sess.Progress.Total)+" steps done\n")
		}
		keys := make([]string, 0, len(sess.Variables))
		for k := range sess.Variables {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s.state = append(s.state, "- Variable "+k+": "+prose.Shorten(sess.Variables[k], 40)+"\n")
		}
		if turns, err := m.Sessions().LoadPending(sid, sess.Summarized.Through); err == nil {
			prompts := 0
			for _, t := range turns {
				if l := turnLine(t.Turn); l != "" {
					s.turns = append(s.turns, l)
					if t.Turn.Role == summarize.User {
						prompts++
					}
				}
			}
			if prompts == 0 {
				s.turns = nil // tool calls alone say too little to take a place
			}
		}
	}
	if s.when.IsZero() {
		if fi, err := os.Stat(filepath.Join(m.Dir, filepath.FromSlash(dir))); err == nil {
			s.when = fi.ModTime().UTC()
		}
	}
	if s.title == "" {
		s.title = s.defaultTitle()
	}
	return s
}

// defaultTitle names a session without a title by its first request.
func (s *sessionInfo) defaultTitle() string {
	var first string
	if r := s.digest.parts[partRequest]; len(r) > 0 {
		first = r[0]
	} else if o := s.digest.parts[partOutcome]; len(o) > 0 {
		first = o[0]
	} else if n := s.digest.parts[partNotes]; len(n) > 0 {
		first = n[0]
	} else {
		for _, t := range s.turns {
			if rest, ok := strings.CutPrefix(t, "- user: "); ok {
				first = strings.TrimSpace(rest)
				break
			}
		}
	}
	if first == "" {
		return "Session"
	}
	if ss := prose.Sentences(first); len(ss) > 0 {
		first = ss[0]
	}
	first = strings.TrimRight(first, ".!?: ")
	if len([]rune(first)) > 80 {
		first = prose.CutClause(first, 16)
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
