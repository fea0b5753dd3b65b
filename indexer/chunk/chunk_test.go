package chunk

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files")

// bodyOf strips YAML front matter the way a caller would, returning the
// body and the line number of its first line.
func bodyOf(t *testing.T, text string) (string, int) {
	t.Helper()
	if !strings.HasPrefix(text, "---\n") {
		return text, 1
	}
	end := strings.Index(text[4:], "\n---\n")
	if end < 0 {
		t.Fatalf("unterminated front matter")
	}
	fm := text[:4+end+5]
	return text[len(fm):], strings.Count(fm, "\n") + 1
}

func formatChunks(chunks []Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		fmt.Fprintf(&b, "chunk %d: lines %d:%d-%d:%d, %d tokens\n", c.Seq, c.StartLine, c.StartCol, c.EndLine, c.EndCol, c.Tokens)
		for _, l := range strings.Split(c.Text, "\n") {
			fmt.Fprintf(&b, "| %s\n", l)
		}
	}
	return b.String()
}

func TestSplitGolden(t *testing.T) {
	opts := Options{MaxTokens: 60, Overlap: 12}
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			body, first := bodyOf(t, string(raw))
			chunks := Split(body, first, opts)
			checkChunks(t, string(raw), chunks, first, opts)
			got := formatChunks(chunks)
			golden := strings.TrimSuffix(f, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if got != string(want) {
				t.Errorf("chunks differ from %s (run with -update after checking):\n%s", golden, got)
			}
		})
	}
}

func TestSplitCuts(t *testing.T) {
	para := strings.Repeat("alpha beta gamma delta. ", 10) // 50 tokens
	short := strings.Repeat("alpha beta gamma delta. ", 4) // 20 tokens
	tests := []struct {
		name      string
		body      string
		opts      Options
		wantFirst []int // start line of each chunk
	}{
		{"empty", "", Options{}, nil},
		{"blank", " \n\t\n\n", Options{}, nil},
		{"one line", "hello", Options{}, []int{1}},
		{"fits whole", "# A\n\n" + para + "\n\n# B\n\n" + para, Options{MaxTokens: 512}, []int{1}},
		// Two sections of ~53 tokens with max 60: cut at the heading, no overlap.
		{"heading", "# A\n\n" + para + "\n\n# B\n\n" + para, Options{MaxTokens: 60, Overlap: 10}, []int{1, 5}},
		// The window holds lines 1-5: the turn at line 5 wins over the
		// paragraph at line 4 and the line at 6.
		{"turn", short + "\n" + short + "\n\n" + short + "\n**User**: " + short + "\n" + short,
			Options{MaxTokens: 90, Overlap: 1}, []int{1, 5}},
		{"no turn", short + "\n" + short + "\n\n" + short + "\nUser " + short + "\n" + short,
			Options{MaxTokens: 90, Overlap: 1}, []int{1, 4}},
		{"custom turn", "Q: " + para + "\nA: " + para,
			Options{MaxTokens: 60, Overlap: 1, Turn: regexp.MustCompile(`^[QA]:`)}, []int{1, 2}},
		{"fence hides heading", "```\n# not a heading\n" + para + "\n# nor this\n" + para + "\n```",
			Options{MaxTokens: 60, Overlap: 1}, []int{1, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := Split(tt.body, 1, tt.opts)
			checkChunks(t, tt.body, chunks, 1, tt.opts)
			var got []int
			for _, c := range chunks {
				got = append(got, c.StartLine)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantFirst) {
				t.Errorf("chunk start lines = %v, want %v\n%s", got, tt.wantFirst, formatChunks(chunks))
			}
		})
	}
}

func TestSplitOverlap(t *testing.T) {
	var lines []string
	for i := range 100 {
		lines = append(lines, fmt.Sprintf("line %d says something short.", i))
	}
	opts := Options{MaxTokens: 50, Overlap: 14}
	chunks := Split(strings.Join(lines, "\n"), 1, opts)
	checkChunks(t, strings.Join(lines, "\n"), chunks, 1, opts)
	if len(chunks) < 10 {
		t.Fatalf("got %d chunks, want many", len(chunks))
	}
	for i := 1; i < len(chunks); i++ {
		prev, c := chunks[i-1], chunks[i]
		overlap := prev.EndLine - c.StartLine + 1
		if overlap != 2 { // each line is 7 tokens: two fit in 14
			t.Errorf("chunk %d overlaps %d lines with the one before, want 2", i, overlap)
		}
	}
}

// checkChunks asserts what must hold of any split: chunks in order, line
// ranges valid, text equal to the file's lines at the recorded columns,
// every non-blank line covered, no chunk blank, sizes within bounds.
func checkChunks(t *testing.T, file string, chunks []Chunk, first int, opts Options) {
	t.Helper()
	opts = opts.WithDefaults()
	lines := strings.Split(file, "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	// Line numbers are of the file; the body starts at line first.
	bodyLines := lines
	if first > 1 {
		bodyLines = lines[first-1:]
	}
	covered := make([]bool, len(bodyLines))
	for i, c := range chunks {
		if c.Seq != i {
			t.Errorf("chunk %d has Seq %d", i, c.Seq)
		}
		if c.StartLine < first || c.EndLine < c.StartLine || c.EndLine >= first+len(bodyLines) {
			t.Fatalf("chunk %d: bad line range %d-%d (body lines %d-%d)", i, c.StartLine, c.EndLine, first, first+len(bodyLines)-1)
		}
		if i > 0 {
			p := chunks[i-1]
			if c.StartLine < p.StartLine || (c.StartLine == p.StartLine && c.StartCol <= p.StartCol) {
				t.Errorf("chunk %d starts at %d:%d, not after chunk %d at %d:%d", i, c.StartLine, c.StartCol, i-1, p.StartLine, p.StartCol)
			}
			if c.EndLine < p.EndLine || (c.EndLine == p.EndLine && c.EndCol <= p.EndCol) {
				t.Errorf("chunk %d ends at %d:%d, not after chunk %d at %d:%d", i, c.EndLine, c.EndCol, i-1, p.EndLine, p.EndCol)
			}
		}
		want := sliceLines(lines, c)
		if c.Text != want {
			t.Errorf("chunk %d text %q, want the file's %q", i, c.Text, want)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Errorf("chunk %d is blank", i)
		}
		if c.Tokens != EstimateTokens(c.Text) {
			t.Errorf("chunk %d: Tokens %d, want %d", i, c.Tokens, EstimateTokens(c.Text))
		}
		// Whitespace-only lines inside a chunk may add a token each.
		if limit := opts.MaxTokens + c.EndLine - c.StartLine + 1; c.Tokens > limit && utf8.RuneCountInString(strings.TrimSpace(c.Text)) > 1 {
			t.Errorf("chunk %d has %d tokens, over the limit %d", i, c.Tokens, limit)
		}
		for l := c.StartLine; l <= c.EndLine; l++ {
			covered[l-first] = true
		}
	}
	for i, l := range bodyLines {
		if strings.TrimSpace(l) != "" && !covered[i] {
			t.Errorf("line %d (%q) is in no chunk", first+i, l)
		}
	}
}

// sliceLines is how a reader of the file gets a chunk's text back.
func sliceLines(lines []string, c Chunk) string {
	if c.StartLine == c.EndLine {
		l := lines[c.StartLine-1]
		return l[c.StartCol:c.EndCol]
	}
	var parts []string
	parts = append(parts, lines[c.StartLine-1][c.StartCol:])
	parts = append(parts, lines[c.StartLine:c.EndLine-1]...)
	parts = append(parts, lines[c.EndLine-1][:c.EndCol])
	return strings.Join(parts, "\n")
}

func FuzzChunk(f *testing.F) {
	for _, name := range []string{"item.md", "transcript.md", "code.md"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint8(60), uint8(12))
	}
	f.Add("", uint8(0), uint8(0))
	f.Add("a\r\n\r\nb c d e f g\n# h\n", uint8(1), uint8(1))
	f.Add(strings.Repeat("x", 3000)+" y", uint8(3), uint8(200))
	f.Add("日本語のテキスト 😀😀😀 \xff\xfe", uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, body string, max, overlap uint8) {
		opts := Options{MaxTokens: int(max), Overlap: int(overlap)}
		chunks := Split(body, 1, opts)
		checkChunks(t, body, chunks, 1, opts)
	})
}

func TestSplitDialogue(t *testing.T) {
	t.Parallel()
	body := strings.Join([]string{
		"# Transcript of session s7", // preamble: left out
		"",
		"Condensed by cairn.",
		"",
		"## Session 7 · 2024-11-28 21:10:00 UTC", // a heading with nothing under it
		"",
		"**Maya:** one",
		"",
		"**Tom:** two",
		"and more of two",
		"",
		"**Maya:** three",
		"",
		"**Tom**: four",
		"",
		"**Maya:** five",
		"",
	}, "\n")
	tests := []struct {
		turns int
		want  []string // chunks' first and last lines, "7-10"
	}{
		{1, []string{"7-7", "9-10", "12-12", "14-14", "16-16"}},
		{2, []string{"7-7", "9-10", "12-12", "14-14"}[:0]}, // filled below
		{3, []string{"7-12", "12-16"}},
		{5, []string{"7-16"}},
		{9, []string{"7-16"}},
	}
	tests[1].want = []string{"7-10", "9-12", "12-14", "14-16"}
	for _, tt := range tests {
		var got []string
		for i, c := range SplitDialogue(body, 1, Options{Turns: tt.turns}) {
			got = append(got, fmt.Sprintf("%d-%d", c.StartLine, c.EndLine))
			if c.Seq != i || c.Tokens != EstimateTokens(c.Text) || strings.HasPrefix(c.Text, "\n") || strings.HasSuffix(c.Text, "\n") {
				t.Errorf("turns %d: chunk %d: %+v", tt.turns, i, c)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("turns %d: chunks %v, want %v", tt.turns, got, tt.want)
		}
	}
	// A window over MaxTokens is cut further; no turns: Split.
	long := "**Maya:** " + strings.Repeat("word ", 300) + "\n**Tom:** short"
	if cs := SplitDialogue(long, 1, Options{MaxTokens: 100, Overlap: -1, Turns: 2}); len(cs) < 3 || cs[len(cs)-1].Tokens > 100 {
		t.Errorf("long turn: %d chunks", len(cs))
	}
	plain := "no turns here\n\njust text"
	if got, want := SplitDialogue(plain, 3, Options{}), Split(plain, 3, Options{}); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("no turns: %+v, want %+v", got, want)
	}
}

func TestSplitSections(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 60) // 60 tokens: over a quarter of 200
	body := strings.Join([]string{
		"# Summary of session s7", // before the first section: left out
		"",
		"## Segment 1 (2024-11-28)", // a heading alone
		"",
		"**Request**",
		"- short",
		"",
		"**Outcome**",
		"- also short",
		"",
		"**Decisions**", // nothing under it
		"",
		"**Open**",
		"- " + long,
		"",
	}, "\n")
	var got []string
	for _, c := range SplitSections(body, 1, Options{MaxTokens: 200}) {
		got = append(got, fmt.Sprintf("%d-%d", c.StartLine, c.EndLine))
	}
	// Request and Outcome share a chunk; the empty Decisions is in none;
	// Open would make it too big.
	if want := "5-9 13-14"; strings.Join(got, " ") != want {
		t.Errorf("chunks %v, want %s", got, want)
	}
}
