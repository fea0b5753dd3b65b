package prose

import (
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A thing's version is named after it: "Java 17", "Unity 2022.3.21f1",
// "elixir 1.17.2", "SDK 51", "node:20-alpine", "eclipse-temurin:21-jre",
// "bump bazel to 7.4.1", "take Debezium up to 2.7.3".
// A bare number counts only after a name that is spelled as a product
// (a capital letter in it: Java, iOS, SDK), so that "port 8080" or "every
// 5" are no versions.
var (
	dottedVersion = lazyre.New(`(?i)\b([a-z][\w+#]*(?:[-.][a-z][\w+#]*)*)(?:\s+version)?(?:[\s:@]+|/|\s+[—–]\s+)(?:\^|~|>=\s*)?v?(\d+\.\d+(?:\.\d+)?(?:[a-z]+\d*)?)\b`)
	numberVersion = lazyre.New(`\b((?:[A-Z][\w+#]*|[a-z]+[A-Z][\w+#]*))\s+v?(\d{1,4})\b`)
	bumpVersion   = lazyre.New(`(?i)\b(?:bump|bumped|bumping|upgrade|upgraded|upgrading|update|updated|updating|move|moved|moving|take|took|taking|bring|brought|bringing|pin|pinned|pinning|raise|raised|raising|lower|lowered|lowering)\s+(?:the\s+)?(?:(?:minimum|min|required|supported|lowest|oldest)\s+)?(?:(?-i:[A-Z]{2,4})\s+)?([a-z][\w+#]*(?:[-.][a-z][\w+#]*)*)\s+(?:(?:up|down|forward|back)\s+)?(?:to|at)\s+` + seriesOf + `v?(\d+\.\d+(?:\.\d+)?)\b`)
	// bumpedVersion is a bump said of the thing: "matplotlib is pinned
	// at 3.9.2".
	bumpedVersion = lazyre.New(`(?i)\b([a-z][\w+#]*(?:[-.][a-z][\w+#]*)*)\s+(?:is|are|was|were|got|gets)\s+(?:now\s+)?(?:pinned|bumped|upgraded|updated|moved|set)\s+(?:to|at)\s+` + seriesOf + `v?(\d+\.\d+(?:\.\d+)?)\b`)
	// bumpLine is a move to a named series and its version: "move us to
	// the Keycloak 25 line — 25.0.6".
	bumpLine = lazyre.New(`(?i)\b(?:move|moved|moving|switch|switched|upgrade|upgraded|bump|bumped|take|took|bring|brought|go|went|put)\s+(?:(?:us|it|them|everything|the\s+\w+)\s+)?(?:over\s+)?to\s+(?:the\s+)?([a-z][\w+#]*(?:[-.][a-z][\w+#]*)*)\s+v?\d+(?:\.\d+)?\s+(?:line|series|branch|release)s?\s*[—–:,-]?\s*v?(\d+\.\d+(?:\.\d+)?)\b`)
	// versionOf is a version named before its thing: "version 2.3 of
	// their template".
	versionOf = lazyre.New(`(?i)\bversion\s+v?(\d+\.\d+(?:\.\d+)?)\s+of\s+(?:the\s+|their\s+|our\s+|its\s+)?([a-z][\w+#]*(?:[-.][a-z][\w+#]*)*)\b`)
	// seriesOf is the series a bump names before its version: "to the
	// 3.9 series — 3.9.2".
	seriesOf   = `(?:the\s+)?(?:v?\d+(?:\.\d+)?\s+(?:series|line|branch|release)\s*[—–,:-]?\s*)?`
	tagVersion = lazyre.New(`(?i)\b([a-z][\w.-]*[a-z]):v?(\d+(?:\.\d+)*)(?:-[\w.-]+)?\b`)
	notProduct = words{list: `from to and or at on in is was be by of for with than as version versions v the a an port ports step steps session sessions line lines page pages chapter issue pr item items level levels phase day days week weeks says said pins pinned bumped requires required series branch release`}
	// numbered are nouns a bare number after them numbers one of many:
	// VLAN 6 and VLAN 10 are two networks, pin 22 and pin 24 two pins,
	// UDP 443 a port. A dotted version ("Rack 3.0.8", "Django Channels
	// 4.1") versions them all the same.
	numbered = words{list: `vlan vlans pin gpio channel channels ch slot slots bay lane bus rack shard shards partition partitions replica worker workers thread threads cpu gpu disk drive row rows column columns table figure fig section appendix ticket bug task story epic sprint batch case test rule zone room floor unit seat camera sensor relay motor axis monitor display tab sheet ward bed gate dock bin aisle id no number udp tcp`}
)

// suffixVersion is a name that ends in its version: products_v3,
// schema-v2, events_v10.
var suffixVersion = lazyre.New(`\b([a-z][a-z0-9]*(?:[_-][a-z][a-z0-9]*)*)[_-]v(\d+)\b`)

// runtimeVersion is a runtime named with its version glued on, as cloud
// runtimes and tox environments spell them: nodejs20, python3.12, go1.22,
// java21, pg16.
var runtimeVersion = lazyre.New(`\b(nodejs|python|java|openjdk|jdk|ruby|php|dotnet|go|pg|postgres|postgresql|mysql|deno)(\d{1,3}(?:\.\d+)?)\b`)

// upgradeAim is a version a thing is on and one it is to move to: "we're
// on v1.29.10 and want to get to 1.30 this week".
var upgradeAim = lazyre.New(`(?i)\bon\s+v?(\d+\.\d+(?:\.\d+)?)\b[^.;]{0,40}?\b(?:want|wants|plan|plans|need|needs|going|have|has|hope|hoping|aim|intend)\s+to\s+(?:get|go|move|upgrade|bump|be)\s+(?:\w+\s+)?(?:to|on)\s+v?(\d+\.\d+(?:\.\d+)?)\b`)

// Aim returns the version a statement says a thing is on and the one it
// is to move to, ok false when it says no such move.
func Aim(text string) (from, to string, ok bool) {
	// Every statement the pack may show is asked, and few say an aim.
	if !strings.Contains(text, " to ") || !strings.ContainsAny(text, "0123456789") {
		return "", "", false
	}
	m := upgradeAim.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// Reached reports whether text names a version of series to and none
// of from: "all nine nodes report v1.30.6" once the aim was 1.30 from
// 1.29.10.
func Reached(text, from, to string) bool {
	if !strings.Contains(text, to) {
		return false // asked of every statement older than the aim
	}
	hit := false
	for _, m := range anyVersion.FindAllStringSubmatch(text, -1) {
		switch v := m[1]; {
		case v == from || strings.HasPrefix(from, v+"."):
			return false
		case v == to || strings.HasPrefix(v, to+"."):
			hit = true
		}
	}
	return hit
}

// anyVersion is a dotted version standing alone.
var anyVersion = lazyre.New(`(?:^|[\s(,:@=])v?(\d+\.\d+(?:\.\d+)?)\b`)

// Upgraded reports whether text names runtime name with its version
// glued on at w, a version above v: "the next deploy runs everything on
// nodejs22" once functions ran on nodejs20. A project moves its runtime
// up, one at a time.
func Upgraded(text, name, v, w string) bool {
	glued := false
	for _, m := range runtimeVersion.FindAllStringSubmatch(text, -1) {
		glued = glued || m[1] == name && m[2] == w
	}
	return glued && above(w, v) && strings.Count(w, ".") == strings.Count(v, ".")
}

// above reports whether dotted version w is above v.
func above(w, v string) bool {
	a, b := strings.Split(w, "."), strings.Split(v, ".")
	for i := range min(len(a), len(b)) {
		x, errX := strconv.Atoi(a[i])
		y, errY := strconv.Atoi(b[i])
		if errX != nil || errY != nil || x != y {
			return errX == nil && errY == nil && x > y
		}
	}
	return len(a) > len(b)
}

// portTag is a tag of four or five digits, which a host's port is and an
// image's tag seldom: "localhost:8008", not "postgres:16".
var portTag = lazyre.New(`^\d{4,5}$`)

// Versions are the versions a statement gives things, name → version,
// names in lower case.
func Versions(text string) map[string]string {
	out := map[string]string{}
	add := func(name, v string) {
		name = strings.ToLower(name)
		if notProduct.has(name) || stopWords.has(name) || versionNum.MatchString(name) {
			return
		}
		out[name] = strings.ToLower(v)
	}
	for _, m := range dottedVersion.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	for _, m := range numberVersion.FindAllStringSubmatch(text, -1) {
		bare := !strings.HasPrefix(strings.TrimSpace(m[0][len(m[1]):]), "v") // "Table v8" is a version
		if _, ok := out[strings.ToLower(m[1])]; !ok && !(bare && numbered.has(strings.ToLower(m[1]))) {
			add(m[1], m[2])
		}
	}
	for _, m := range tagVersion.FindAllStringSubmatch(text, -1) {
		if portTag.MatchString(m[2]) {
			continue // localhost:8008 and postgres:5432 name a port, not a tag
		}
		add(m[1], m[2])
	}
	for _, m := range bumpVersion.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2]) // "bump bazel to 7.4.1"
	}
	for _, m := range bumpedVersion.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2]) // "matplotlib is pinned at 3.9.2"
	}
	for _, m := range bumpLine.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2]) // "move us to the Keycloak 25 line — 25.0.6"
	}
	for _, m := range suffixVersion.FindAllStringSubmatch(text, -1) {
		if _, ok := out[strings.ToLower(m[1])]; !ok {
			add(m[1], "v"+m[2]) // "the index products_v3", once products_v4 took its place
		}
	}
	for _, m := range runtimeVersion.FindAllStringSubmatch(text, -1) {
		if _, ok := out[m[1]]; !ok && !(m[1] == "python" && len(m[2]) == 1) { // python3 is a command
			add(m[1], m[2]) // "the nodejs20 runtime", once the deploy runs on nodejs22
		}
	}
	for _, m := range versionOf.FindAllStringSubmatch(text, -1) {
		if _, ok := out[strings.ToLower(m[2])]; !ok {
			add(m[2], m[1]) // "version 2.3 of their template"
		}
	}
	if strings.Contains(text, "releas") || strings.Contains(text, " on ") || strings.Contains(text, " out") || strings.Contains(text, "publish") {
		for _, m := range ownRelease.FindAllStringSubmatch(text, -1) {
			if _, ok := out[releaseKey]; !ok {
				add(releaseKey, m[1]+m[2]) // "0.2.0 is the current release on Maven Central", "1.0.0 is on Central"
			}
		}
	}
	return out
}

// releaseKey names the version a project itself released.
const releaseKey = "own release"

// ownRelease is a version said as what the project has out, with no
// name before it: "0.2.0 is the current release", "1.0.0 is on Central",
// "1.4.1 went out", "released 1.1.0". Not a dependency's ("Openapi-generator
// 7.10.0 is out": a name before the version takes it).
var ownRelease = lazyre.New(`(?i)(?:^|[.;:,]\s+|\b(?:pushed|done|and|so|now)[,:]?\s+)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s+(?:is\s+(?:now\s+)?(?:the\s+)?(?:current|latest|newest)\s+release\b|is\s+(?:now\s+)?(?:out|live|published|released|on\s+(?:maven\s+)?central|on\s+pypi|on\s+npm|on\s+crates\.io|on\s+the\s+marketplace|on\s+rubygems(?:\.org)?|on\s+hex)\b|went\s+out\b)|\b(?:we\s+)?(?:released|published|shipped)\s+v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\b`)

// VersionRole is the noun that follows name's version v in text, which
// says which of name's versions it is: "the iOS 17.5 runtime" is the
// simulator's, not the deployment target's; "" when a word that names
// no role follows ("Java 17, and …", "iOS 17.0 for SwiftData").
func VersionRole(text, name, v string) string {
	lower := strings.ToLower(text)
	for _, form := range []string{name + " " + v, name + " v" + v} {
		i := strings.Index(lower, form)
		if i < 0 {
			continue
		}
		rest := strings.Fields(lower[i+len(form):])
		if len(rest) == 0 || strings.IndexAny(lower[i+len(form):][:1], ",;:.)") == 0 {
			return ""
		}
		if w := strings.Trim(rest[0], ".,;:)`'\""); len(w) > 2 && roleNouns.has(w) {
			return w
		}
		return ""
	}
	return ""
}

// roleNouns name which of a thing's versions a statement gives.
var roleNouns = words{list: `runtime runtimes simulator simulators sdk image images toolchain toolchains cluster clusters
	server servers client clients driver drivers plugin plugins container containers target targets engine binary binaries
	runner runners host hosts base`}

// Bumped reports whether text moves name to version v in so many words:
// "bump bazel to 7.4.1", "upgraded terraform to 1.9.8".
func Bumped(text, name, v string) bool {
	for _, re := range []*lazyre.Regexp{bumpVersion, bumpedVersion, bumpLine} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if strings.EqualFold(m[1], name) && strings.EqualFold(m[2], v) {
				return true
			}
		}
	}
	return false
}
