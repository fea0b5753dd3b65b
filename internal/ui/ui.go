package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
)

// JSON writes v as indented JSON, the form every --json output takes.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Print writes v with asJSON's renderer: toJSON under --json, else
// toText.
func Print[T any](w io.Writer, asJSON bool, v T, toJSON, toText func(io.Writer, T) error) error {
	if asJSON {
		return toJSON(w, v)
	}
	return toText(w, v)
}

// IsTerminal reports whether f, a reader or a writer, is a terminal.
func IsTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Progress returns a function that draws a progress bar of files on w
// when it is a terminal, and nil otherwise.
func Progress(w io.Writer, what string) func(done, total int) {
	if !IsTerminal(w) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(what),
				progressbar.OptionShowCount(),
				progressbar.OptionSetItsString("files"),
				progressbar.OptionShowIts(),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		bar.Set(done)
		if done >= total {
			bar.Finish()
		}
	}
}

// table writes columns separated by tabs, aligned with two spaces.
func table(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// Short is the abbreviated commit id people see.
func Short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

func short8(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

// CountOf says "1 one" or "N many".
func CountOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// OneLine keeps a message to the one line the user sees.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// NonNil makes a nil slice an empty one, so that JSON shows [] and not
// null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func cutLine(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Escape makes text from memory files, remotes or transcripts safe to
// print on a terminal: control characters (C0, DEL and C1, tabs and
// newlines included) and bytes that are not UTF-8 are written as Go
// escapes (\x1b, \n, \u009b), so that a title cannot set the window's
// title, change colours or move the cursor. Everything else is left as
// it is.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isControl(r) || r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

func escapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
