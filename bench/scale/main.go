// Command scale measures cairn on generated memories of 10,000 and
// 100,000 files (issue 15): daemon memory, `cairn list`, `cairn context`
// without a daemon, the first index build against SQLite FTS5 on the same
// text, and the capture hook, each next to its baseline measured in the
// same run. bench/scale.sh builds cairn, runs it, and adds the checkpoint
// rows (bench/checkpoint.sh) and cold search at 10,000 (bench/search.sh).
//
//	go run ./bench/scale -cairn BIN [-runs N] [-work DIR] SIZES...
//	go run ./bench/scale -generate N PROJECT   (only write the memory)
//	go run ./bench/scale -heap FILE PROJECT    (index as the daemon does; heap profile)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	var c config
	flag.StringVar(&c.cairn, "cairn", "", "the cairn binary to measure (required)")
	flag.StringVar(&c.hook, "hook", "hooks/capture.sh", "the capture hook script")
	flag.StringVar(&c.oldHook, "hook-baseline", "", "another capture hook script to time with it, for before/after pairs")
	flag.StringVar(&c.work, "work", "", "folder for the generated memories (default: a new temporary one)")
	flag.IntVar(&c.runs, "runs", 11, "timed runs per row (fewer when a row takes over 20 s)")
	gen := flag.Int("generate", 0, "only write a generated memory of this many files into PROJECT/.cairn, committed")
	heap := flag.String("heap", "", "only index PROJECT as the daemon does and write a heap profile to this file")
	flag.Parse()
	if *heap != "" {
		if flag.NArg() != 1 {
			fmt.Fprintln(os.Stderr, "usage: scale -heap FILE PROJECT")
			os.Exit(2)
		}
		if err := heapProfile(context.Background(), flag.Arg(0), *heap); err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		return
	}
	if *gen > 0 {
		if flag.NArg() != 1 {
			fmt.Fprintln(os.Stderr, "usage: scale -generate N PROJECT")
			os.Exit(2)
		}
		if _, err := generate(context.Background(), flag.Arg(0), *gen, 1); err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		return
	}
	if c.cairn == "" {
		fmt.Fprintln(os.Stderr, "usage: scale -cairn BIN [-hook FILE] [-runs N] [-work DIR] SIZES...")
		os.Exit(2)
	}
	var sizes []int
	for _, a := range flag.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < 100 {
			fmt.Fprintf(os.Stderr, "scale: bad size %q: want a number of files of at least 100\n", a)
			os.Exit(2)
		}
		sizes = append(sizes, n)
	}
	if len(sizes) == 0 {
		sizes = []int{10000, 100000}
	}
	if err := run(context.Background(), c, sizes); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type config struct {
	cairn, hook, oldHook, work string
	runs                       int
}

func run(ctx context.Context, c config, sizes []int) error {
	var err error
	if c.cairn, err = filepath.Abs(c.cairn); err != nil {
		return err
	}
	if c.hook, err = filepath.Abs(c.hook); err != nil {
		return err
	}
	if c.oldHook != "" {
		if c.oldHook, err = filepath.Abs(c.oldHook); err != nil {
			return err
		}
	}
	if c.work == "" {
		if c.work, err = os.MkdirTemp("", "cairn-scale."); err != nil {
			return err
		}
		defer os.RemoveAll(c.work)
	}
	b := &bench{config: c, ctx: ctx}
	fmt.Printf("load average before: %s\n", loadavg())
	b.header()
	if err := b.daemonFloor(); err != nil {
		return err
	}
	for _, n := range sizes {
		if err := b.size(n); err != nil {
			return fmt.Errorf("%d files: %w", n, err)
		}
	}
	if err := b.hookRows(); err != nil {
		return err
	}
	fmt.Printf("load average after: %s\n", loadavg())
	return nil
}
