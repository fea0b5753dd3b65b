package ui

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Version is cairn version's line, from the build information Go keeps
// in the binary: the module version (v1.2.0 from go install ...@v1.2.0 or
// a release; a pseudo-version or "(devel)" from a checkout), and the
// commit, its time and whether the tree had changes, when the binary was
// built in a git checkout (go install of a published module has no
// commit: its version names one).
func Version(bi *debug.BuildInfo) string {
	if bi == nil {
		return "cairn (devel), no build information"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cairn %s", v)
	if rev := set["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, ", commit %.12s", rev)
		if t := set["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " of %s", t)
		}
		if set["vcs.modified"] == "true" {
			b.WriteString(" with local changes")
		}
	}
	fmt.Fprintf(&b, ", %s", bi.GoVersion)
	if goos, goarch := set["GOOS"], set["GOARCH"]; goos != "" {
		fmt.Fprintf(&b, " %s/%s", goos, goarch)
	}
	return b.String()
}

// VersionText prints this binary's Version line.
func VersionText(w io.Writer) error {
	bi, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(w, Version(bi))
	return err
}
