package paths

import (
	"slices"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// versionedDir is a path whose last element is a version: the folder
// one version of a thing is installed in (/opt/vulkan/1.3.280).
var versionedDir = lazyre.New(`(?:^|[\s(` + "`" + `'"=])((?:~|/)[\w.+-]*(?:/[\w.+-]+)*)/v?(\d+(?:\.\d+)+)\b`)

// VersionedDirs maps the parent of each versioned path in s to its
// version.
func VersionedDirs(s string) map[string]string {
	m := map[string]string{}
	for _, v := range versionedDir.FindAllStringSubmatch(s, -1) {
		m[v[1]] = v[2]
	}
	return m
}

// OtherVersionDir reports whether a newer text has a versioned path
// under a parent of x's with another version, and none with x's.
func OtherVersionDir(x, newer map[string]string) bool {
	for dir, v := range x {
		if nv, ok := newer[dir]; ok && nv != v {
			return true
		}
	}
	return false
}

// AbsPaths are the absolute paths s names, each as its components
// without the placeholders at its end ($SLURM_JOB_ID, <jobid>, {id}).
func AbsPaths(s string) [][]string {
	out := [][]string{}
	for _, m := range absPath.FindAllStringSubmatch(s, -1) {
		// A path that ends a sentence ends before its full stop.
		parts := strings.Split(strings.Trim(strings.TrimRight(m[1], "."), "/"), "/")
		for len(parts) > 0 && placeholder.MatchString(parts[len(parts)-1]) {
			parts = parts[:len(parts)-1]
		}
		if len(parts) >= 3 {
			out = append(out, parts)
		}
	}
	return out
}

var (
	absPath     = lazyre.New(`(?:^|[\s'"(=` + "`" + `])(/[\w.$<>{}@-]+(?:/[\w.$<>{}@-]+)+)`)
	placeholder = lazyre.New(`[$<{]|^[A-Z_]+$|^\*$`)
)

// MovedPath reports whether a newer text has a path that ends as one of
// x's (or a folder of one of x's) does, in its last two components, under
// another parent: where the same thing lives now.
func MovedPath(x, newer [][]string) bool {
	if namesAny(x, newer) {
		return false // the newer text names x's path itself
	}
	for _, whole := range x {
		// A file under a folder that moved moved with it:
		// /data/billing/out/BILLIN.csv once /data/billing/out is
		// /srv/batch/billing/out.
		for end := len(whole); end >= 3; end-- {
			p := whole[:end]
			if end < len(whole) && sharedFolders()[p[end-1]] {
				continue // /usr/local/bin holds many things
			}
			for _, q := range newer {
				if len(q) < 3 || !slices.Equal(p[len(p)-2:], q[len(q)-2:]) {
					continue
				}
				if !slices.Equal(p[:len(p)-2], q[:len(q)-2]) {
					return true
				}
			}
		}
	}
	return false
}

// OtherVersionPath reports whether a newer text has one of x's paths with
// another number in one of its components and the rest the same, and
// does not name x's path itself: the same file of another version
// (/usr/lib/postgresql/17/bin/pg_config where 16 was,
// /usr/lib/jvm/java-21-openjdk after java-17-openjdk).
func OtherVersionPath(x, newer [][]string) bool {
	if namesAny(x, newer) {
		return false
	}
	for _, p := range x {
		for _, q := range newer {
			if differ := prose.OneDiffers(p, q); differ >= 0 && otherNumber(p[differ], q[differ]) {
				return true
			}
		}
	}
	return false
}

// otherNumber reports whether a and b are the same but for their digits,
// and have some: "16" and "17", "java-17-openjdk" and "java-21-openjdk".
func otherNumber(a, b string) bool {
	// A run of digits is one '#'.
	skel := func(s string) (string, bool) {
		var sb strings.Builder
		has, prev := false, false
		for _, c := range s {
			digit := c >= '0' && c <= '9'
			if !digit {
				sb.WriteRune(c)
			} else if !prev {
				sb.WriteByte('#')
			}
			has, prev = has || digit, digit
		}
		return sb.String(), has
	}
	sa, da := skel(a)
	sb, db := skel(b)
	return da && db && sa == sb
}

// sharedFolders are folders of many unrelated files.
var sharedFolders = sync.OnceValue(func() map[string]bool {
	return prose.WordSet(`bin sbin lib lib64 share include local src etc tmp var opt usr home srv mnt data`)
})

// namesAny reports whether newer names one of x's paths itself.
func namesAny(x, newer [][]string) bool {
	for _, p := range x {
		for _, q := range newer {
			if slices.Equal(p, q) {
				return true
			}
		}
	}
	return false
}

// MovedURL reports whether newer text n has a URL of the same scheme as
// one of x's that ends in the same last path component on another host,
// and does not name x's URL itself: the same thing served from
// elsewhere (oci://harbor.orbital.internal/charts where
// oci://ghcr.io/orbital-io/charts was).
func MovedURL(x, n string) bool {
	xs, ns := urlParts(x), urlParts(n)
	if len(xs) == 0 || len(ns) == 0 {
		return false
	}
	for _, u := range xs {
		for _, v := range ns {
			if u == v {
				return false
			}
		}
	}
	for _, u := range xs {
		for _, v := range ns {
			if u[0] == v[0] && u[1] != v[1] && u[2] != "" && u[2] == v[2] && !commonEnd()[u[2]] {
				return true
			}
		}
	}
	return false
}

// commonEnd are last path components many unrelated services share.
var commonEnd = sync.OnceValue(func() map[string]bool {
	return prose.WordSet(`graphql health healthz ready readyz live livez metrics api v1 v2 v3 v4 status login logout
	callback webhook webhooks releases latest index.html docs openapi.json swagger.json query search auth token`)
})

// urlParts are the scheme, host and last path component of each URL s
// names, lower-case.
func urlParts(s string) [][3]string {
	var out [][3]string
	for _, m := range prose.URLs(s) {
		m = strings.ToLower(strings.TrimRight(m, ".,;:!?'\"*"))
		scheme, rest, _ := strings.Cut(m, "://")
		host, p, _ := strings.Cut(rest, "/")
		p = strings.TrimRight(p, "/")
		out = append(out, [3]string{scheme, host, p[strings.LastIndexByte(p, '/')+1:]})
	}
	return out
}
