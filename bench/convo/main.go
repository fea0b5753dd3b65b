package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "convo:", err)
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ error }

// report is the benchmark's outcome, as -json prints it.
type report struct {
	K     int            `json:"k"`
	Count map[string]int `json:"questions"` // by kind, and "all"
	// Recall[metric][kind][system], metric "recall@5" ... "tokens@2000".
	Recall  map[string]map[string]map[string]float64 `json:"recall"`
	Latency map[string]latency                       `json:"latency_ms"`
	Hits    map[string]int                           `json:"hits_median"` // hits a search returned, by system
	Convs   []*convStats                             `json:"conversations"`
	Qs      []*qResult                               `json:"questions_detail,omitempty"`
}

type latency struct {
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("convo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "testdata/convo", "the folder of conversations")
	asJSON := fs.Bool("json", false, "print JSON")
	verbose := fs.Bool("v", false, "print per question the rank at which each evidence turn was found")
	k := fs.Int("k", 50, "hits each search asks for")
	strict := fs.Bool("strict", false, "drop faint hits, as cairn search does without --all")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bench/convo [-dir DIR] [-json] [-v] [-k N] [-strict] [CONV...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *k < 20 {
		return usageError{errors.New("-k must be at least 20, the largest k reported")}
	}
	dirs, err := convDirs(*dir, fs.Args())
	if err != nil {
		return err
	}
	warn := func(s string) {
		if *verbose {
			fmt.Fprintln(stderr, "warning:", s)
		}
	}
	rep := &report{K: *k}
	var results []*qResult
	for _, d := range dirs {
		c, err := load(d)
		if err != nil {
			return err
		}
		qs, st, err := runConv(ctx, c, options{k: *k, all: !*strict}, warn)
		if err != nil {
			return err
		}
		results = append(results, qs...)
		rep.Convs = append(rep.Convs, st)
	}
	summarize(rep, results)
	if *asJSON {
		if *verbose {
			rep.Qs = results
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if *verbose {
		printRanks(stdout, results)
	}
	printReport(stdout, rep)
	return nil
}

// convDirs lists the conversations to run: those named (a folder of dir,
// or a path), else every folder of dir.
func convDirs(dir string, names []string) ([]string, error) {
	if len(names) == 0 {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("no conversations in %s", dir)
		}
	}
	var out []string
	for _, n := range names {
		p := n
		if _, err := os.Stat(filepath.Join(p, "conversation.md")); err != nil {
			p = filepath.Join(dir, n)
		}
		if _, err := os.Stat(filepath.Join(p, "conversation.md")); err != nil {
			return nil, fmt.Errorf("%s: no conversation.md", n)
		}
		out = append(out, p)
	}
	return out, nil
}

// metrics name the figures, in the order of answer.AtK then answer.Budget.
func metrics() []string {
	var out []string
	for _, k := range atK {
		out = append(out, fmt.Sprintf("recall@%d", k))
	}
	for _, b := range budgets {
		out = append(out, fmt.Sprintf("tokens@%d", b))
	}
	return out
}

// summarize averages the questions' recalls per kind and over all, and
// takes the latencies.
func summarize(rep *report, results []*qResult) {
	rep.Count = map[string]int{}
	rep.Recall = map[string]map[string]map[string]float64{}
	rep.Latency = map[string]latency{}
	rep.Hits = map[string]int{}
	names := metrics()
	for _, m := range names {
		rep.Recall[m] = map[string]map[string]float64{}
	}
	for _, q := range results {
		for _, kind := range []string{q.Kind, "all"} {
			rep.Count[kind]++
			for i, m := range names {
				if rep.Recall[m][kind] == nil {
					rep.Recall[m][kind] = map[string]float64{}
				}
				for _, sys := range systems {
					a := q.By[sys]
					v := append(append([]float64(nil), a.AtK...), a.Budget...)[i]
					rep.Recall[m][kind][sys] += v
				}
			}
		}
	}
	for _, m := range names {
		for kind, bySys := range rep.Recall[m] {
			for sys := range bySys {
				bySys[sys] /= float64(rep.Count[kind])
			}
		}
	}
	for _, sys := range systems {
		var ds []time.Duration
		var hits []int
		for _, q := range results {
			ds = append(ds, q.By[sys].took)
			hits = append(hits, q.By[sys].Hits)
		}
		rep.Hits[sys] = median(hits)
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		rep.Latency[sys] = latency{Median: ms(ds[len(ds)/2]), P95: ms(ds[min(len(ds)-1, len(ds)*95/100)])}
	}
}

func printReport(w io.Writer, rep *report) {
	for _, c := range rep.Convs {
		fmt.Fprintf(w, "%s: %d sessions, %d turns; ingest %.1fs, index %.1fs: %d documents, %d chunks; a transcript chunk holds %d turns, %d tokens (median)\n",
			c.Name, c.Sessions, c.Turns, c.Ingest, c.Index, c.Docs, c.Chunks, c.ChunkTurns, c.ChunkTokens)
	}
	fmt.Fprintf(w, "%d questions (", rep.Count["all"])
	for i, kind := range kinds {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "%d %s", rep.Count[kind], kind)
	}
	fmt.Fprintf(w, "); each search asks for %d hits and gets (median)", rep.K)
	for _, sys := range systems {
		fmt.Fprintf(w, " %s %d", sys, rep.Hits[sys])
	}
	fmt.Fprintln(w)
	for _, m := range metrics() {
		title := "recall within " + strings.TrimPrefix(m, "tokens@") + " tokens"
		if strings.HasPrefix(m, "recall@") {
			title = m + " hits"
		}
		fmt.Fprintf(w, "\n%s\n", title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "kind\t")
		for _, sys := range systems {
			fmt.Fprintf(tw, "%s\t", sys)
		}
		fmt.Fprintln(tw)
		for _, kind := range append(append([]string(nil), kinds...), "all") {
			if rep.Count[kind] == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t", kind)
			for _, sys := range systems {
				fmt.Fprintf(tw, "%.1f%%\t", 100*rep.Recall[m][kind][sys])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\nlatency per query, ms (median / p95)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, sys := range systems {
		fmt.Fprintf(tw, "%s\t", sys)
	}
	fmt.Fprintln(tw)
	for _, sys := range systems {
		l := rep.Latency[sys]
		fmt.Fprintf(tw, "%.2f / %.2f\t", l.Median, l.P95)
	}
	fmt.Fprintln(tw)
	tw.Flush()
}

// printRanks prints per question the rank of the first hit that holds each
// evidence turn, per system ("-": none of the hits).
func printRanks(w io.Writer, results []*qResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "question\tkind\tevidence\t")
	for _, sys := range systems {
		fmt.Fprintf(tw, "%s\t", sys)
	}
	fmt.Fprintln(tw)
	for _, q := range results {
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t", q.Conv, q.ID, q.Kind, strings.Join(q.Evidence, " "))
		for _, sys := range systems {
			var rs []string
			for _, r := range q.By[sys].Ranks {
				if r == 0 {
					rs = append(rs, "-")
				} else {
					rs = append(rs, fmt.Sprint(r))
				}
			}
			fmt.Fprintf(tw, "%s\t", strings.Join(rs, " "))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w)
}
