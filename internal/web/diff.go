package web

import (
	"net/http"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
)

// diffLine is one line of a diff: Op is ' ' (both sides), '-' (old
// only), '+' (new only) or '@' (a hunk's header, in Text).
type diffLine struct {
	Op       byte
	Old, New int // line numbers, 0 when the side has none
	Text     string
}

// maxDiffCells bounds the table of the line diff (old lines × new
// lines, after the common ends are cut): beyond it, the changed middle
// shows as all removed and all added.
const maxDiffCells = 4 << 20

// lineDiff returns the lines of a and b with what changed, by the
// longest common subsequence of the lines.
func lineDiff(a, b string) []diffLine {
	x, y := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	out := make([]diffLine, 0, len(x)+len(y))
	for i := range pre {
		out = append(out, diffLine{' ', i + 1, i + 1, x[i]})
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	i, j := 0, 0
	if len(mx)*len(my) <= maxDiffCells {
		// lcs[i][j] is the length of the common subsequence of mx[i:] and my[j:].
		w := len(my) + 1
		lcs := make([]int32, (len(mx)+1)*w)
		for i := len(mx) - 1; i >= 0; i-- {
			for j := len(my) - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		for i < len(mx) && j < len(my) {
			switch {
			case mx[i] == my[j]:
				out = append(out, diffLine{' ', pre + i + 1, pre + j + 1, mx[i]})
				i, j = i+1, j+1
			case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
				out = append(out, diffLine{'-', pre + i + 1, 0, mx[i]})
				i++
			default:
				out = append(out, diffLine{'+', 0, pre + j + 1, my[j]})
				j++
			}
		}
	}
	for ; i < len(mx); i++ {
		out = append(out, diffLine{'-', pre + i + 1, 0, mx[i]})
	}
	for ; j < len(my); j++ {
		out = append(out, diffLine{'+', 0, pre + j + 1, my[j]})
	}
	for k := len(x) - suf; k < len(x); k++ {
		out = append(out, diffLine{' ', k + 1, k + 1 + len(y) - len(x), x[k]})
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// hunks keeps the changed lines of d with n lines of context around
// them, a header line before each hunk.
func hunks(d []diffLine, n int) []diffLine {
	keep := make([]bool, len(d))
	for i, l := range d {
		if l.Op != ' ' {
			for k := max(0, i-n); k <= min(len(d)-1, i+n); k++ {
				keep[k] = true
			}
		}
	}
	var out []diffLine
	for i, l := range d {
		if !keep[i] {
			continue
		}
		if i == 0 || !keep[i-1] {
			out = append(out, diffLine{Op: '@', Old: l.Old, New: l.New})
		}
		out = append(out, l)
	}
	return out
}

// sideRow is a row of a side-by-side diff.
type sideRow struct {
	Left, Right *diffLine
	Head        bool
}

// sideBySide pairs the removed and added lines of each change.
func sideBySide(d []diffLine) []sideRow {
	var out []sideRow
	for i := 0; i < len(d); {
		switch d[i].Op {
		case '@':
			out = append(out, sideRow{Head: true, Left: &d[i]})
			i++
		case ' ':
			out = append(out, sideRow{Left: &d[i], Right: &d[i]})
			i++
		default:
			var del, add []*diffLine
			for ; i < len(d) && d[i].Op == '-'; i++ {
				del = append(del, &d[i])
			}
			for ; i < len(d) && d[i].Op == '+'; i++ {
				add = append(add, &d[i])
			}
			for k := range max(len(del), len(add)) {
				var row sideRow
				if k < len(del) {
					row.Left = del[k]
				}
				if k < len(add) {
					row.Right = add[k]
				}
				out = append(out, row)
			}
		}
	}
	return out
}

type diffFile struct {
	Path    string
	Action  string
	Binary  bool
	TooBig  bool
	Lines   []diffLine
	Side    []sideRow
	Added   int
	Removed int
}

type diffData struct {
	From, To   string
	FromC, ToC string // resolved commits
	View       string
	Files      []diffFile
	Pager      pager
	Tags       []memory.Tag
}

// Bounds of a diff page.
const maxDiffBytes = 512 << 10 // a file side larger than this is not shown line by line

// diff shows what changed between two checkpoints or tags (from, to:
// anything `cairn diff` takes), file by file.
func (v *Viewer) diff(r *http.Request) (*page, error) {
	ctx := r.Context()
	q := r.URL.Query()
	d := diffData{From: q.Get("from"), To: q.Get("to"), View: q.Get("view")}
	if d.View != "split" {
		d.View = "unified"
	}
	h := v.mem.History()
	var err error
	if d.Tags, err = h.Tags(ctx); err != nil {
		return nil, err
	}
	p := &page{Name: "diff", Title: "Diff", Nav: "timeline", Data: &d}
	if d.From == "" && d.To == "" {
		return p, nil
	}
	for _, s := range []struct {
		name string
		rev  string
		dst  *string
	}{{"from", d.From, &d.FromC}, {"to", d.To, &d.ToC}} {
		if _, err := clean(s.name, s.rev, 200); err != nil || s.rev == "" || strings.HasPrefix(s.rev, "-") {
			return nil, notFound("no checkpoint or tag %q", trim(s.rev, 80))
		}
		c, err := h.Resolve(s.rev)
		if err != nil {
			return nil, notFound("no checkpoint or tag %q", trim(s.rev, 80))
		}
		*s.dst = c
	}
	files, err := h.Diff(ctx, memory.DiffOptions{From: d.FromC, To: d.ToC})
	if err != nil {
		return nil, err
	}
	lo, hi, pg, err := paginate(r, len(files))
	if err != nil {
		return nil, err
	}
	d.Pager = pg
	for _, f := range files[lo:hi] {
		df := diffFile{Path: f.Path, Action: string(f.Action), Binary: f.Binary()}
		switch {
		case df.Binary:
		case len(f.Old) > maxDiffBytes || len(f.New) > maxDiffBytes:
			df.TooBig = true
		default:
			all := lineDiff(string(f.Old), string(f.New))
			for _, l := range all {
				switch l.Op {
				case '+':
					df.Added++
				case '-':
					df.Removed++
				}
			}
			df.Lines = hunks(all, 3)
			if d.View == "split" {
				df.Side = sideBySide(df.Lines)
			}
		}
		d.Files = append(d.Files, df)
	}
	return p, nil
}
