package outdate

import (
	"context"
	"errors"
	"fmt"
	"github.com/cairn-mem/cairn/internal/quote"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/consolidate"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/recent"
)

// Result is what Mark did.
type Result struct {
	Session string             `json:"session"` // the session whose summary.md quotes them
	Quoted  []string           `json:"quoted"`  // the statements, word for word
	Items   []model.ItemChange `json:"items,omitempty"`
	Commit  string             `json:"commit,omitempty"`
}

// packSessions is how many sessions a pack shows (recall's
// maxPackSessions): what Mark may take back.
const packSessions = 10

// Errors of Mark that are the caller's: nothing was written.
var (
	// ErrNoStatement means no statement of the memory says what Mark
	// was given.
	ErrNoStatement = errors.New("no statement of the memory says that")
	// ErrOwnStatement means only the session changed last says it: a
	// quote takes back what older sessions said.
	ErrOwnStatement = errors.New("only the newest session says that")
)

// Mark marks what text names as no longer true: a line of a context
// pack as it was shown ("- Decision: …", "- **title**: … (fact, …)", an
// open item with its "(session …)"), a session's bullet or a core
// item's title. The statements it names, of the sessions a pack shows
// older than the one changed last, are quoted word for word under "**No
// longer true**" in that session's summary.md, so that no later pack
// shows them (digest.Untrue), and the core items they title are retired;
// one commit. This is how the agent, a model already reading the pack,
// or the user takes back what a session said, whatever its wording. A
// text that names nothing is ErrNoStatement: nothing is guessed.
func Mark(ctx context.Context, m *memory.Memory, text string) (*Result, error) {
	forms, shortened := statementForms(text)
	if len(forms) == 0 {
		return nil, fmt.Errorf("outdate: %w: the text is empty", ErrNoStatement)
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	// The quote goes to the session changed last, the one running when
	// the agent asks; it takes back what older sessions said, not its own.
	dir, id := recent.Newest(m)
	if dir == "" {
		return nil, fmt.Errorf("outdate: %w: the memory has no sessions", ErrNoStatement)
	}
	var quoted []string
	add := func(s string) {
		if !slices.Contains(quoted, s) {
			quoted = append(quoted, s)
		}
	}
	for _, s := range recent.Latest(m, dir, packSessions) {
		for _, p := range s.Digest.Parts {
			for _, b := range p {
				if names(forms, shortened, b) {
					add(b)
				}
			}
		}
		for _, o := range s.Digest.Open {
			if names(forms, shortened, o) {
				add(o)
			}
		}
	}
	rows, err := m.Catalog(ctx, string(model.LayerCore))
	if err != nil {
		return nil, fmt.Errorf("outdate: %w", err)
	}
	for _, r := range rows {
		// A core item the newest session made is its own statement too.
		if r.Title != "" && r.Session != id && names(forms, shortened, r.Title) {
			add(r.Title)
		}
	}
	if len(quoted) == 0 {
		if s := recent.Load(m, dir); s != nil {
			for _, b := range allBullets(s) {
				if names(forms, shortened, b) {
					return nil, fmt.Errorf("outdate: %w (session %s): %q; a later session can take it back", ErrOwnStatement, memory.ShortSession(id), mdtext.Cut(b, 80))
				}
			}
		}
		return nil, fmt.Errorf("outdate: %w: %q (quote a line of the pack, a session's bullet or a core item's title)", ErrNoStatement, mdtext.Cut(strings.TrimSpace(text), 80))
	}
	res := &Result{Session: id, Quoted: quoted}
	sum := path.Join(dir, model.SummaryFile)
	var b strings.Builder
	if !m.StatOK(sum) {
		fmt.Fprintf(&b, "# Summary of session %s\n", id)
	}
	b.WriteString("\n**No longer true**\n")
	for _, q := range quoted {
		b.WriteString("- " + q + "\n")
	}
	tx.Add(sum, []byte(b.String()))
	if res.Items, err = consolidate.RetireQuoted(ctx, m, quoted, &tx.Writes); err != nil {
		return nil, fmt.Errorf("outdate: %w", err)
	}
	cp, err := tx.Commit(ctx, memory.CheckpointOptions{
		Message: fmt.Sprintf("outdated: %d statement(s) no longer hold", len(quoted)),
		Session: id,
		Event:   "outdated",
	})
	if err != nil {
		return nil, err
	}
	if cp != nil {
		res.Commit = cp.Hash
	}
	return res, nil
}

// allBullets lists a session's bullets and open items.
func allBullets(s *recent.Session) []string {
	var out []string
	for _, p := range s.Digest.Parts {
		out = append(out, p...)
	}
	return append(out, s.Digest.Open...)
}

// statementForms are the keys (quote.Key) a statement text may
// be known by once the pack's marks are taken off: its list dash, its
// label ("Decision: ", "Request (done): "), a core item's bold title
// and what follows it, its tail in parentheses ("(session 3f1c9a52)",
// "(fact, Dec 6, id 4ACHN2NN)"), a "…" where the pack shortened it.
func statementForms(text string) (forms []string, shortened bool) {
	s := mdtext.OneLine(text)
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "- "))
	if t, ok := strings.CutPrefix(s, "**"); ok {
		if title, _, ok := strings.Cut(t, "**"); ok {
			forms = append(forms, title) // a core item's entry: its title
		}
	}
	if i := strings.Index(s, ": "); i > 0 && i < 40 && !strings.ContainsAny(s[:i], "`*") && isLabel(s[:i]) {
		s = s[i+2:]
	}
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i > 0 && tailMark(s[i+2:len(s)-1]) {
			s = s[:i]
		}
	}
	forms = append(forms, s)
	var keys []string
	for _, f := range forms {
		f = strings.TrimSpace(f)
		if cut, ok := strings.CutSuffix(f, "…"); ok {
			f, shortened = cut, true
		}
		if k := quote.Key(f); k != "" {
			keys = append(keys, k)
		}
	}
	return keys, shortened
}

// isLabel reports whether s is a label the pack puts before a bullet:
// one or two words, a "(done)" after them.
func isLabel(s string) bool {
	s = strings.TrimSuffix(s, " (done)")
	return len(strings.Fields(s)) <= 2 && s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// tailMark reports whether the inside of a closing parenthesis is one
// the pack adds: a session's short id, or an item's kind, date and id.
func tailMark(s string) bool {
	return strings.HasPrefix(s, "session ") || strings.Contains(s, ", id ")
}

// names reports whether statement is one forms name: the same words,
// or, when the pack shortened it ("…"), its beginning to a word's end.
func names(forms []string, shortened bool, statement string) bool {
	k := quote.Key(mdtext.OneLine(statement))
	for _, f := range forms {
		if k == f || shortened && len(strings.Fields(f)) >= 4 && strings.HasPrefix(k, f) {
			return true
		}
	}
	return false
}

// WriteText writes what Mark did for a person, a line each; esc makes a
// memory's text safe for a terminal.
func WriteText(w io.Writer, res *Result, esc func(string) string) error {
	var b strings.Builder
	for _, q := range res.Quoted {
		fmt.Fprintf(&b, "no longer shown: %s\n", esc(q))
	}
	for _, it := range res.Items {
		fmt.Fprintf(&b, "retired %s %q (%s)\n", it.Kind, esc(it.Title), it.Path)
	}
	if res.Commit != "" {
		fmt.Fprintf(&b, "quoted in session %s, checkpoint %.10s\n", memory.ShortSession(res.Session), res.Commit)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
