// Package lazyre holds regular expressions that are compiled when first
// used rather than when the program starts.
//
// Every cairn command is the same binary, and a package-level
// regexp.MustCompile runs at every start, for every command: the
// summariser's hundred-odd expressions (many of them case-folded
// alternations of a hundred words) took half of the process's
// initialisation, 4.5 MB of allocation and three collections, in commands
// that never summarise (`cairn version`, `cairn context`). A Regexp here
// costs nothing until a method is called; the first call compiles it, once,
// safely from any goroutine. A pattern that does not compile panics at that
// first use, as regexp.MustCompile would at start: Check compiles every
// pattern made so far, for tests.
package lazyre

import (
	"fmt"
	"regexp"
	"sync"
)

// A Regexp is a regexp.Regexp compiled at its first use. Its methods are
// those of regexp.Regexp of the same names.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns expr, to be compiled at its first use.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// Check compiles every pattern New was given so far and returns the
// first that does not compile.
func Check() error {
	mu.Lock()
	defer mu.Unlock()
	for _, r := range all {
		if _, err := regexp.Compile(r.expr); err != nil {
			return fmt.Errorf("lazyre: %w", err)
		}
	}
	return nil
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Regexp().FindSubmatch(b) }

func (r *Regexp) Match(b []byte) bool  { return r.Regexp().Match(b) }
func (r *Regexp) Find(b []byte) []byte { return r.Regexp().Find(b) }

func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }

func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }

func (r *Regexp) NumSubexp() int { return r.Regexp().NumSubexp() }
