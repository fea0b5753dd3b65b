// Command gen writes a generated memory repository for benchmarks:
// PROJECT/.cairn with about -files files shaped like real cairn memory,
// committed with the git command-line tool.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

func main() {
	files := flag.Int("files", 10000, "number of files")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [-files N] PROJECT")
		os.Exit(2)
	}
	dir := filepath.Join(flag.Arg(0), ".cairn")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	l := gitstoretest.LayoutFor(*files)
	if err := gitstoretest.Generate(dir, l, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := gitstoretest.CommitAll(context.Background(), dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d files\n", dir, l.Files())
}
