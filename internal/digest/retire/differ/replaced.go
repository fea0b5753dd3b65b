package differ

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// What a newer statement says took the place of what: code quoted, a
// place, a file under another extension.

// QuotesReplaced reports whether x quotes code a newer statement says
// another took the place of, and not that other: "Tests are `cargo test
// --workspace`" once "Tests run with `cargo nextest run` now instead of
// `cargo test --workspace`". A quoted command or value is that one
// exactly, however common its words are in the memory.
func QuotesReplaced(x string, insteadOf [][2]string) bool {
	for _, p := range insteadOf {
		if strings.Contains(x, p[0]) {
			continue
		}
		if strings.Contains(x, "`"+p[1]+"`") {
			return true
		}
	}
	return false
}

// PlaceReplaced reports whether x names, quoted or not, a path whose
// last part is a place a newer statement says another took the place of,
// and not that other: "`\\fs01\billing\ERP-Import`" once "from
// `/srv/sftp/erp/outbox` instead of the ERP-Import share".
func PlaceReplaced(x string, insteadOf [][2]string) bool {
	for _, p := range insteadOf {
		if strings.Contains(x, p[0]) || !strings.Contains(x, p[1]) {
			continue
		}
		for _, t := range pathToken.FindAllString(x, -1) {
			t = strings.TrimRight(t, `/\.,;:`)
			if i := strings.LastIndexAny(t, `/\`); i >= 0 && t[i+1:] == p[1] {
				return true
			}
		}
	}
	return false
}

// FileNames are the file names of s whose base names no word is
// ("BILL_YYYYMM.txt", "orders-2024.csv"): name → base. A name of two
// extensions ("UserCard.test.tsx") is none: its base is no file's.
func FileNames(s string) map[string]string {
	if !strings.Contains(s, ".") {
		return nil
	}
	var out map[string]string
	for _, m := range fileName.FindAllStringSubmatchIndex(s, -1) {
		if m[1] < len(s)-1 && s[m[1]] == '.' && lex.IsWordByte(s[m[1]+1]) || m[0] > 0 && s[m[0]-1] == '.' {
			continue
		}
		if out == nil {
			out = make(map[string]string)
		}
		out[s[m[0]:m[1]]] = s[m[2]:m[3]]
	}
	return out
}

// fileName is a file name with a base name no word is: an underscore, a
// hyphen, a digit or an inner capital in it.
var fileName = lazyre.New(`\b([A-Za-z][A-Za-z0-9]*[_\-0-9A-Z][\w-]*)\.([a-z][a-z0-9]{1,4})\b`)

// OtherExtension reports whether x names a file that files, a newer
// statement's, names with another extension, and names no file of x
// itself: "BILL_YYYYMM.txt, fixed width" once "the import is …
// BILL_YYYYMM.csv instead of …", not once "BILL_YYYYMM.txt alongside
// BILL_YYYYMM.csv".
func OtherExtension(x string, files map[string]string) bool {
	var xf map[string]string
	for name, base := range files {
		if !strings.Contains(x, base) {
			continue // most sentences: no regex run
		}
		if xf == nil {
			if xf = FileNames(x); xf == nil {
				return false
			}
			for xn := range xf {
				if _, ok := files[xn]; ok {
					return false // it names x's own file
				}
			}
		}
		for xn, xb := range xf {
			if xb == base && xn != name && !strings.Contains(x, name) {
				return true
			}
		}
	}
	return false
}

// pathToken is a path, Unix or Windows, in running text.
var pathToken = lazyre.New(`[\w.:~-]*[/\\][\w.~/\\-]+`)

// NamesFile reports whether s names a file whose base name no word is
// (fileName).
func NamesFile(s string) bool { return strings.Contains(s, ".") && fileName.MatchString(s) }
