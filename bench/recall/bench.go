package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
)

// Result is one project's figures.
type Result struct {
	Project string   `json:"project"`
	Budget  int      `json:"budget"`
	Calls   int      `json:"hook_calls"`
	Starts  int      `json:"session_starts"`
	Cairn   Score    `json:"cairn"`
	Empty   Score    `json:"empty_pack"`
	Tail    Score    `json:"last_6000_chars"`
	Errors  []string `json:"hook_errors,omitempty"`
	// Warnings are what a trial found wrong besides hook calls: a pack
	// not in the transcript, jobs left in the queue, a broken memory.
	Warnings []string `json:"warnings,omitempty"`

	sc    *Scenario
	packs map[string]string // by session
}

// Report is the whole run.
type Report struct {
	Daemon   bool     `json:"daemon"`
	Trial    bool     `json:"trial,omitempty"` // the real claude CLI ran the sessions
	Projects []Result `json:"projects"`
	Overall  struct {
		Cairn Score `json:"cairn"`
		Empty Score `json:"empty_pack"`
		Tail  Score `json:"last_6000_chars"`
	} `json:"overall"`
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("recall", flag.ContinueOnError)
	fs.SetOutput(stderr)
	daemon := fs.Bool("daemon", false, "run cairn daemon during each project's replay")
	var o options
	o.register(fs)
	rescore := fs.String("rescore", "", "score the packs an earlier -packs run wrote into `DIR` instead of replaying")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: recall [-daemon] [-budget N] [-json] [-v] [-packs DIR] [PROJECT...]\n       recall -rescore DIR [-json] [-v] [PROJECT...]\n       recall record testdata/recall/PROJECT...\n       recall trial [-cairn BIN] [-budget N] [-keep DIR] [-packs DIR] [-json] [-v] testdata/recall/PROJECT...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	root, dirs, err := o.projects(fs.Args())
	if err != nil {
		return err
	}
	warn := func(s string) { fmt.Fprintln(stderr, "warning:", s) }
	bin := o.cairn
	if *rescore == "" {
		var done func()
		if bin, done, err = cairnBinary(ctx, root, bin); err != nil {
			return err
		}
		defer done()
	}
	rp := &replayer{cairn: bin, daemon: *daemon, budget: o.budget, packs: o.packs, keep: o.keep, rescore: *rescore}
	rep := &Report{Daemon: *daemon}
	err = rep.run(dirs, warn, func(dir string) (*Result, error) { return benchProject(ctx, rp, dir, warn) })
	if err != nil {
		return err
	}
	return rep.write(stdout, o.asJSON, o.verbose)
}

// options are the flags the replay and the trial share.
type options struct {
	budget             int
	asJSON, verbose    bool
	cairn, packs, keep string
}

func (o *options) register(fs *flag.FlagSet) {
	fs.IntVar(&o.budget, "budget", 0, "search.context_budget in tokens (0: cairn's default)")
	fs.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&o.verbose, "v", false, "list the facts each pack missed and the stale ones it showed")
	fs.StringVar(&o.cairn, "cairn", "", "a cairn binary to use instead of building ./cmd/cairn")
	fs.StringVar(&o.packs, "packs", "", "write each pack cairn gave into `DIR`/PROJECT/SESSION.md")
	fs.StringVar(&o.keep, "keep", "", "keep each scratch project, with its .cairn memory, as `DIR`/PROJECT (a trial keeps its home, with the transcripts, as DIR/PROJECT.home)")
}

// projects checks the flags parsed and returns the module's root and the
// folders of the projects named.
func (o *options) projects(names []string) (root string, dirs []string, err error) {
	if o.budget < 0 {
		return "", nil, usageError{errors.New("-budget: want a number of tokens")}
	}
	if root, err = moduleRoot(); err != nil {
		return "", nil, err
	}
	dirs, err = projectDirs(root, names)
	return root, dirs, err
}

// cairnBinary is the cairn binary named, made absolute, or one built from
// ./cmd/cairn when none is; done removes what the build left.
func cairnBinary(ctx context.Context, root, named string) (bin string, done func(), err error) {
	if named != "" {
		bin, err = filepath.Abs(named)
		return bin, func() {}, err
	}
	tmp, err := os.MkdirTemp("", "cairn-recall-bin-")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(tmp, "cairn")
	if err := build(ctx, root, bin); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return bin, func() { os.RemoveAll(tmp) }, nil
}

// run scores every project of dirs with bench, in order, and adds it to
// the report; the failed hook calls and the warnings of each go to warn.
func (rep *Report) run(dirs []string, warn func(string), bench func(dir string) (*Result, error)) error {
	for _, dir := range dirs {
		r, err := bench(dir)
		if err != nil {
			return err
		}
		for _, e := range append(r.Errors, r.Warnings...) {
			warn(e)
		}
		rep.Projects = append(rep.Projects, *r)
		rep.Overall.Cairn.add(r.Cairn)
		rep.Overall.Empty.add(r.Empty)
		rep.Overall.Tail.add(r.Tail)
	}
	return nil
}

// write prints the report as text, or as JSON.
func (rep *Report) write(w io.Writer, asJSON, verbose bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.print(w, verbose)
}

// benchProject replays one project and scores its packs and baselines.
func benchProject(ctx context.Context, rp *replayer, dir string, warn func(string)) (*Result, error) {
	sc, recs, err := loadProject(dir, warn)
	if err != nil {
		return nil, err
	}
	var rr *Replay
	if rp.rescore != "" {
		rr, err = savedPacks(rp.rescore, sc)
	} else {
		rr, err = rp.replay(ctx, sc, recs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: replay: %w", sc.Project, err)
	}
	return newResult(sc, rr, recs), nil
}

// newResult scores the packs of rr and the baselines of the transcripts
// of recs.
func newResult(sc *Scenario, rr *Replay, recs map[string]*Recorded) *Result {
	r := &Result{Project: sc.Project, Budget: rr.Budget, Calls: rr.Calls, Starts: rr.Starts, Errors: rr.Errors, Warnings: rr.Warnings, sc: sc, packs: rr.Packs}
	ids := sessionIDs(sc, recs)
	r.Cairn = score(sc, func(k int) string { return rr.Packs[sc.Sessions[k].Name] }, ids)
	r.Empty = score(sc, func(int) string { return "" }, nil)
	r.Tail = score(sc, func(k int) string { return tailBaseline(sc, recs, k) }, nil)
	return r
}

// savedPacks reads the packs a run with -packs wrote for sc's project:
// a judge changed is tried on the same packs without replaying them.
func savedPacks(dir string, sc *Scenario) (*Replay, error) {
	rr := &Replay{Packs: map[string]string{}}
	for k, s := range sc.Sessions {
		if k == 0 || s.Clear {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, sc.Project, s.Name+".md"))
		if err != nil {
			return nil, err
		}
		rr.Packs[s.Name] = string(b)
	}
	return rr, nil
}

// projectDirs resolves the projects named (a folder, or a name under
// testdata/recall), or lists every recorded one.
func projectDirs(root string, names []string) ([]string, error) {
	base := filepath.Join(root, "testdata", "recall")
	if len(names) == 0 {
		entries, err := os.ReadDir(base)
		if err != nil {
			return nil, fmt.Errorf("no test set: %w", err)
		}
		var out []string
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(base, e.Name(), "recorded")); err == nil {
				out = append(out, filepath.Join(base, e.Name()))
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no recorded project under %s", base)
		}
		return out, nil
	}
	var out []string
	for _, n := range names {
		d := n
		if !strings.ContainsRune(n, filepath.Separator) {
			if _, err := os.Stat(n); err != nil {
				d = filepath.Join(base, n)
			}
		}
		if _, err := os.Stat(filepath.Join(d, "scenario.yaml")); err != nil {
			return nil, fmt.Errorf("project %s: %w", n, err)
		}
		out = append(out, filepath.Clean(d))
	}
	return out, nil
}

func build(ctx context.Context, root, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/cairn")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/cairn: %w: %s", err, b)
	}
	return nil
}

func (rep *Report) print(w io.Writer, verbose bool) error {
	mode := "no daemon"
	switch {
	case rep.Trial:
		mode = "trial: the claude CLI with cairn's hooks and the daemon they start"
	case rep.Daemon:
		mode = "daemon running"
	}
	fmt.Fprintf(w, "Pack recall, %s (tokens: mean per pack / budget)\n\n", mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "project\tpacks\tfacts\trecall\tstale\ttokens\t\tempty: recall\t\tlast 6,000 chars: recall\tstale\ttokens\t")
	row := func(name string, budget int, c, e, t Score) {
		b := "-"
		if budget > 0 {
			b = fmt.Sprint(budget)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%d / %s\t\t%.2f\t\t%.2f\t%.2f\t%d\t\n",
			name, c.Packs, c.Expected, c.Recall(), c.StaleRate(), c.MeanTokens(), b, e.Recall(), t.Recall(), t.StaleRate(), t.MeanTokens())
	}
	budgets := map[int]bool{}
	for _, r := range rep.Projects {
		row(r.Project, r.Budget, r.Cairn, r.Empty, r.Tail)
		budgets[r.Budget] = true
	}
	if len(rep.Projects) > 1 {
		b := 0
		if len(budgets) == 1 {
			b = rep.Projects[0].Budget
		}
		row("all", b, rep.Overall.Cairn, rep.Overall.Empty, rep.Overall.Tail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nrecall: expected facts found in one pack line (all match regexes); stale: superseded facts shown as current")
	if o := rep.Overall.Cairn; o.Labelled > 0 {
		fmt.Fprintf(w, "labels: %d of %d labelled lines that state a fact found fit its kind (%.3f)\n", o.Labelled-o.Mislabelled, o.Labelled, o.LabelFit())
	}
	if !verbose {
		return nil
	}
	byKind, byLine := map[string]int{}, map[string]int{}
	for _, r := range rep.Projects {
		fmt.Fprintf(w, "\n%s (%d hook calls, %d session starts)\n", r.Project, r.Calls, r.Starts)
		for _, b := range r.Cairn.Boundaries {
			fmt.Fprintf(w, "  %s: %d/%d facts, %d tokens\n", b.Session, len(b.Found), b.Expected, b.Tokens)
			for _, id := range b.Missed {
				fmt.Fprintf(w, "    missed %s: %s\n", id, r.sc.fact(id).Text)
			}
			for i, id := range b.StaleFound {
				fmt.Fprintf(w, "    stale  %s: %s\n", id, r.sc.fact(id).Text)
				fmt.Fprintf(w, "           in: %s\n", b.StaleLines[i])
				byKind[r.sc.fact(id).Kind]++
				byLine[lineKind(b.StaleLines[i])]++
			}
		}
	}
	// Where the stale shows are, for the next round to start from.
	fmt.Fprintf(w, "\nstale shows by kind of fact: %s\nstale shows by pack line: %s\n", tally(byKind), tally(byLine))
	return nil
}

// lineKind names the kind of pack line a stale show was in: a session
// bullet by its label, a core item, an open item, or other.
func lineKind(line string) string {
	l := strings.TrimPrefix(strings.TrimSpace(line), "- ")
	switch {
	case strings.HasPrefix(l, "**"):
		return "core item"
	case strings.HasSuffix(l, ")") && strings.Contains(l, "(session "):
		return "open item"
	}
	if label, _, ok := strings.Cut(l, ": "); ok && len(label) < 20 && !strings.ContainsAny(label, "`*") {
		return label
	}
	return "other"
}

// tally lists counts, largest first: "Outcome 27, Request 21".
func tally(n map[string]int) string {
	keys := slices.Collect(maps.Keys(n))
	slices.SortFunc(keys, func(a, b string) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
