package prose

import (
	"slices"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// NamesIdent reports whether texts a and b both name one identifier in
// code (controller_manager, spark.sql.shuffle.partitions): a name that
// precise says the two are about one thing, as two distinctive words do.
func NamesIdent(a, b string) bool {
	ids := identRE.FindAllString(b, -1)
	for _, id := range identRE.FindAllString(a, -1) {
		if slices.Contains(ids, id) {
			return true
		}
	}
	return false
}

var identRE = lazyre.New(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
