package runout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

var (
	goFail           = lazyre.New(`(?m)^\s*--- FAIL: (\S+)`)
	goOK             = lazyre.New(`(?m)^ok\s+\S+`)
	goFailPkg        = lazyre.New(`(?m)^FAIL\s+\S+\s`)
	pyCounts         = lazyre.New(`(\d+) (passed|failed|errors?)\b`)
	pyFailed         = lazyre.New(`(?m)^FAILED (\S+)`)
	jestCounts       = lazyre.New(`(?m)^Tests:\s+(.*)$`)
	cargoCounts      = lazyre.New(`test result: \w+\. (\d+) passed; (\d+) failed`)
	fileLineError    = lazyre.New(`^\S+:\d+(:\d+)?:? .+`)
	passLine         = lazyre.New(`(?i)(\bPASSED|\bPASS|\bOK|\bSKIPPED|✓)\s*(\(.*\))?$|^(ok|PASS|--- PASS:)\s`)
	errorWords       = lazyre.New(`(?i)\b(error|fail(ed|ure)?|panic|exception|cannot|can't|undefined|not found|no such|denied|fatal|expected|mismatch|timeout|timed out|refused|traceback|assert)`)
	uninformativeErr = lazyre.New(`^(Exit code \d+|exit status \d+|FAIL|FAIL\s+\S+\s+[\d.]+s|FAILED|Error: Process completed with exit code \d+\.?|make: \*\*\*.*|npm ERR! (code|errno|A complete log).*|error: Recipe .*|\s*)$`)
)

// TestOutcome reads test counts and failing tests from a test run's
// output: "14 passed", "2 failed: TestClaim, TestRetry".
func TestOutcome(out string) string {
	var failing []string
	for _, m := range goFail.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "/") || len(failing) == 0 {
			failing = prose.AppendNew(failing, m[1])
		}
	}
	for _, m := range pyFailed.FindAllStringSubmatch(out, -1) {
		failing = prose.AppendNew(failing, m[1])
	}
	counts := ""
	switch {
	case cargoCounts.MatchString(out):
		m := cargoCounts.FindStringSubmatch(out)
		counts = m[1] + " passed, " + m[2] + " failed"
	case jestCounts.MatchString(out):
		counts = strings.TrimSpace(jestCounts.FindStringSubmatch(out)[1])
	case pyCounts.MatchString(out) && !goOK.MatchString(out):
		var parts []string
		for _, m := range pyCounts.FindAllStringSubmatch(out, 4) {
			parts = append(parts, m[1]+" "+m[2])
		}
		counts = strings.Join(parts, ", ")
	default:
		ok, fail := len(goOK.FindAllString(out, -1)), len(goFailPkg.FindAllString(out, -1))
		switch {
		case ok > 0 && fail > 0:
			counts = plural(ok, "package") + " ok, " + strconv.Itoa(fail) + " failed"
		case ok > 0:
			counts = plural(ok, "package") + " ok"
		case fail > 0:
			counts = plural(fail, "package") + " failed"
		}
	}
	if len(failing) > 0 {
		names := failing
		if len(names) > 3 {
			names = append(names[:3:3], "…")
		}
		f := "failing: " + strings.Join(names, ", ")
		if counts == "" {
			return f
		}
		return counts + "; " + f
	}
	return counts
}

// ErrorLine picks the line of a failed tool's output that says what went
// wrong: a file:line error, a failing test, the last line of a traceback,
// or the first line that speaks of an error.
func ErrorLine(out string) string {
	lines := strings.Split(out, "\n")
	if strings.Contains(out, "Traceback (most recent call last)") {
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" && !uninformativeErr.MatchString(l) {
				return prose.Clip(l, 160)
			}
		}
	}
	first, fileLine := "", ""
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		if l == "" || uninformativeErr.MatchString(l) || passLine.MatchString(l) {
			continue // "ErrorMappingTest > case03 PASSED" names an error and reports none
		}
		if strings.HasPrefix(l, "--- FAIL:") {
			continue // the test's own lines say more; the name comes from TestOutcome
		}
		if fileLine == "" && fileLineError.MatchString(l) && errorWords.MatchString(l) {
			fileLine = l
		}
		if first == "" && errorWords.MatchString(l) {
			first = l
		}
	}
	switch {
	case fileLine != "":
		return prose.Clip(fileLine, 160)
	case first != "":
		return prose.Clip(first, 160)
	}
	for _, failLines := range []bool{false, true} {
		for _, raw := range lines {
			l := strings.TrimSpace(raw)
			if l != "" && !uninformativeErr.MatchString(l) && strings.HasPrefix(l, "--- FAIL:") == failLines {
				return prose.Clip(l, 160)
			}
		}
	}
	return ""
}

// plural: "1 file", "3 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Fold folds repeats of how runs ended: ok, ok, ok → ok ×3.
func Fold(list []string) []string {
	var out []string
	for i := 0; i < len(list); {
		j := i
		for j < len(list) && list[j] == list[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", list[i], j-i))
		} else {
			out = append(out, list[i])
		}
		i = j
	}
	return out
}
