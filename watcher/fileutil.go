package watcher

import (
	"fmt"
	"os"
	"strings"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// tmpMark was in the name of the temporary files of older versions, before
// safefile wrote them; Recover still removes those a crash left behind.
const tmpMark = ".cairn-tmp-"

// isTemp recognises a temporary file of an interrupted write. Such names
// start with a dot, so no folder scan takes them for jobs.
func isTemp(name string) bool {
	return safefile.IsTemp(name) || (isHidden(name) && strings.Contains(name, tmpMark))
}

func isHidden(name string) bool { return strings.HasPrefix(name, ".") }

// names lists the entries of dir that are not hidden, in name order.
func names(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	all, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	out := all[:0]
	for _, n := range all {
		if !isHidden(n) {
			out = append(out, n)
		}
	}
	return out, nil
}
