package transcript

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// tail parses data the way a tailer does: the file grows by random amounts
// (cutting lines anywhere), each parse resumes where the last one stopped
// and is given the ids of the lines before it (Options.Seen), and a last
// Final parse takes the rest.
func tail(t *testing.T, f Format, data []byte, rnd *rand.Rand, sessionID string) (events, side []Event, errs []string, consumed int64, lines int) {
	t.Helper()
	pos, line, visible := 0, 1, 0
	seen := map[string]struct{}{}
	for {
		visible = min(len(data), visible+1+rnd.IntN(max(1, len(data)/4)))
		final := visible == len(data)
		p, err := Parse(f, data[pos:visible], Options{Name: "f", Offset: int64(pos), Line: line, SessionID: sessionID, Final: final, Seen: seen})
		if err != nil {
			t.Fatal(err)
		}
		if p.Consumed < int64(pos) || p.Consumed > int64(visible) {
			t.Fatalf("consumed %d outside [%d, %d]", p.Consumed, pos, visible)
		}
		if c := int(p.Consumed); c > pos && c < visible && data[c-1] != '\n' {
			t.Fatalf("consumed %d is not at a line boundary", c)
		}
		events = append(events, p.Events...)
		side = append(side, p.Sidechain...)
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		for _, id := range p.IDs {
			seen[id] = struct{}{}
		}
		pos, line, lines = int(p.Consumed), line+p.Lines, lines+p.Lines
		if final {
			return events, side, errs, p.Consumed, lines
		}
	}
}

// contextFree clears what Codex and Markdown transcripts say once at the
// top (cwd, model, branch, version; a Markdown front matter's session),
// and what a dialogue's earlier lines say of its later turns (the
// session heading's number and time, the speakers' order, hence the
// role): a parse resumed after those lines cannot know it, as ParseCodex,
// ParseMarkdown and ParseChat document.
func contextFree(f Format, evs []Event) []Event {
	out := make([]Event, len(evs))
	for i, e := range evs {
		if e.Speaker != "" {
			e.Part, e.Time, e.Kind = 0, time.Time{}, "turn"
		}
		if f != FormatCodex && f != FormatMarkdown {
			out[i] = e
			continue
		}
		e.CWD, e.Model, e.GitBranch, e.Version = "", "", "", ""
		if f == FormatMarkdown {
			e.SessionID = ""
		}
		out[i] = e
	}
	return out
}

func TestIncrementalSameAsOnePass(t *testing.T) {
	t.Parallel()
	for _, rel := range fixtureFiles(t) {
		t.Run(rel, func(t *testing.T) {
			f, data := parseFixture(t, rel)
			sid := SessionIDFromPath(rel)
			one, err := Parse(f, data, Options{Name: "f", SessionID: sid, Final: true})
			if err != nil {
				t.Fatal(err)
			}
			var oneErrs []string
			for _, e := range one.Errors {
				oneErrs = append(oneErrs, e.Error())
			}
			for seed := range 200 {
				rnd := rand.New(rand.NewPCG(uint64(seed), 7))
				evs, side, errs, consumed, lines := tail(t, f, data, rnd, sid)
				evs, side = contextFree(f, evs), contextFree(f, side)
				wantEvs, wantSide := contextFree(f, one.Events), contextFree(f, one.Sidechain)
				if consumed != one.Consumed || lines != one.Lines {
					t.Fatalf("seed %d: consumed %d bytes, %d lines; one pass %d, %d", seed, consumed, lines, one.Consumed, one.Lines)
				}
				if d := diffEvents(wantEvs, evs); d != "" {
					t.Fatalf("seed %d: events differ from one pass: %s", seed, d)
				}
				if d := diffEvents(wantSide, side); d != "" {
					t.Fatalf("seed %d: sidechain differs from one pass: %s", seed, d)
				}
				if !reflect.DeepEqual(errs, oneErrs) {
					t.Fatalf("seed %d: errors %q, one pass %q", seed, errs, oneErrs)
				}
			}
		})
	}
}

func TestSameRangeSameEvents(t *testing.T) {
	t.Parallel()
	for _, rel := range fixtureFiles(t) {
		f, data := parseFixture(t, rel)
		for _, final := range []bool{false, true} {
			a, _ := Parse(f, data, Options{Final: final})
			b, _ := Parse(f, data, Options{Final: final})
			if d := diffEvents(a.Events, b.Events); d != "" || a.Consumed != b.Consumed {
				t.Errorf("%s (final %v): two parses differ: %s", rel, final, d)
			}
		}
	}
}

func diffEvents(want, got []Event) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("missing event %d: %+v", i, want[i])
		case i >= len(want):
			return fmt.Sprintf("extra event %d: %+v", i, got[i])
		case !reflect.DeepEqual(want[i], got[i]):
			return fmt.Sprintf("event %d:\nwant %+v\n got %+v", i, want[i], got[i])
		}
	}
	return ""
}

// TestSeenSkipsRepeatsBeforeRange: a range parsed with the ids of the
// lines before it (Options.Seen) skips a line that repeats one of them,
// as one pass over the whole file does; Parsed.IDs gives those ids.
func TestSeenSkipsRepeatsBeforeRange(t *testing.T) {
	_, data := parseFixture(t, "claude/basic.jsonl")
	lines := bytes.SplitAfter(data, []byte("\n"))
	first := bytes.Join(lines[:10], nil)
	second := bytes.Join(append(append([][]byte{}, lines[1:6]...), lines[10:]...), nil)
	whole := append(append([]byte{}, first...), second...)
	one := ParseClaude(whole, Options{Final: true})

	a := ParseClaude(first, Options{Final: true})
	seen := map[string]struct{}{}
	for _, id := range a.IDs {
		seen[id] = struct{}{}
	}
	if len(a.IDs) == 0 || len(seen) != len(a.IDs) {
		t.Fatalf("IDs of the first range: %q", a.IDs)
	}
	b := ParseClaude(second, Options{Offset: int64(len(first)), Line: a.Lines + 1, Final: true, Seen: seen})
	// Results whose calls lie in the first range are not paired (a range
	// cut mid-turn): compare which events there are.
	ids := func(evs []Event) (out []string) {
		for _, e := range evs {
			out = append(out, string(e.Kind)+" "+e.ID)
		}
		return out
	}
	if want, got := ids(one.Events), ids(append(a.Events, b.Events...)); !reflect.DeepEqual(want, got) {
		t.Errorf("two ranges with Seen differ from one pass:\n got %q\nwant %q", got, want)
	}
	for _, id := range b.IDs {
		if _, dup := seen[id]; dup {
			t.Errorf("IDs repeats %s, which Seen had", id)
		}
	}
	if again := ParseClaude(second, Options{Offset: int64(len(first)), Final: true}); len(again.Events) <= len(b.Events) {
		t.Errorf("without Seen the repeats should be taken: %d events, %d with Seen", len(again.Events), len(b.Events))
	}
}
