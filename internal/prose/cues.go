package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

var (
	// reasonCue marks a reason given: "because", "so that", "to avoid",
	// "is simpler".
	reasonCue = lazyre.New(`(?i)(\bbecause\b|\bsince (it|they|we|the|this|that|there|our|you|its|their|\w+ (is|are|has|have|does|doesn't|can|can't|will|won't|already))\b|\bso that\b|\bso (we|it|they|there|the|that|nothing|no)\b|\botherwise\b|\bthe reason (is|being|was)\b|\bto (avoid|keep|prevent|make sure|ensure|stay|save|reduce|speed|match)\b|\bwhich (means|lets|keeps|avoids|gives|makes|stops|prevents|protects|guarantees|ensures)\b|\bgiven (that|the)\b|\bdue to\b|\bas (it|they|this|that) (is|are|has|have|does|doesn't|gives|keeps|avoids|can|can't|won't|will|already)\b|\bthat way\b|\bthis way\b|\b(is|are|was|'s) (simpler|faster|safer|cheaper|overkill|lighter|smaller|already there|built in|built-in|stdlib)\b|\btoo (slow|heavy|complex|complicated|much|many|big|expensive|fragile|flaky)\b|\bfor (simplicity|safety|speed|performance|consistency)\b)`)
	// envValue is a value an environment fact holds: a port, a URL, a
	// version, a path, a host, a variable, a command, an address.
	envValue = lazyre.New(`(?i)(\b(branch|bucket|namespace|region|cluster|registry|host|hostname|account|profile|database|db|schema|queue|topic)\s+(is|are)\s+(now\s+)?[\w-]*[\d./:_-][\w./:-]*|\bbranch\s+(is|are)\s+(now\s+)?\w+|\b(on|to|at|from) :?\d{4,5}\b|\b[a-z][a-z0-9+.-]*://\S+|\b(namespace|cluster|region|bucket|zone|account|host|hostname|queue|topic|branch|schema|registry|image|profile|context)[ :=]+[\w./-]*[\d_-][\w./-]*|\bport\s*:?\s*\d{2,5}\b|\blocalhost(:\d+)?\b|:\d{2,5}\b|https?://\S+|\b\d{1,3}(\.\d{1,3}){3}\b|(^|\s|` + "`" + `)(~|\.{1,2})?/[\w.@-]+(/[\w.@*-]*)*|\b[\w-]+/[\w.-]+(/[\w.-]+)*\.\w{1,5}\b|\bv?\d+\.\d+(\.\d+)?\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|` + "`[^`]{2,}`" + `|\b[\w-]+\.(internal|local|lan|io|com|net|org|dev|cloud|svc)\b|\b[a-z][\w-]*(\.[a-z][\w-]*)+:[a-z][\w.-]+|\b0x[0-9a-f]{2,8}\b)`)
)

// ReasonAt is where s gives a reason ("because", "so that", "to avoid",
// "is simpler"), as regexp's FindStringIndex, or nil.
func ReasonAt(s string) []int {
	for off := 0; off < len(s); {
		i := reasonCue.FindStringIndex(s[off:])
		if i == nil {
			return nil
		}
		loc := []int{off + i[0], off + i[1]}
		if !asItIs(s, loc) && !sinceWhen(s[loc[0]:loc[1]]) && !ifCompared(s, loc) {
			return loc
		}
		off = loc[1]
	}
	return nil
}

// ifCompared reports whether the cue at loc in s is a comparison in a
// condition: "when it was smaller than the last one, subtracted" says
// when, not why; "we took SQLite, it's simpler" gives a reason.
func ifCompared(s string, loc []int) bool {
	return condition.MatchString(s[:loc[0]])
}

// condition ends with a condition's opening and its subject.
var condition = lazyre.New(`(?i)\b(?:when|whenever|if|unless|until|once|while)\s+(?:it|they|this|that|the \w+|\w+)\s*$`)

// sinceWhen reports whether the cue m is "since then", a time: "…,
// incrementals since then are a few GB a night" gives no reason, where
// "since today is the freeze" does.
func sinceWhen(m string) bool {
	f := strings.Fields(strings.ToLower(m))
	return len(f) > 1 && f[0] == "since" && f[1] == "then"
}

// asItIs reports whether the reason cue at loc in s is "as it is" (or
// "as they are") closing its clause: "newServer now uses cfg.Timeout as
// it is; …" and "takes Net Units and Net Value as they are and keeps
// Returns only for the reserve" keep the value unchanged and give no
// reason.
func asItIs(s string, loc []int) bool {
	m := strings.ToLower(s[loc[0]:loc[1]])
	if !strings.HasPrefix(m, "as ") || !strings.HasSuffix(m, " is") && !strings.HasSuffix(m, " are") {
		return false
	}
	rest := strings.TrimSpace(s[loc[1]:])
	r, _ := utf8.DecodeRuneInString(rest)
	if rest == "" || strings.ContainsRune(".,;:)—–", r) {
		return true
	}
	// "… as they are and keeps Returns only for the reserve": a
	// conjunction goes on with the clause "as they are" closed, but not
	// when it goes on with the as-clause's own verb ("as it is and always
	// was our default").
	next, after, _ := strings.Cut(strings.ToLower(rest), " ")
	return (next == "and" || next == "but" || next == "or" || next == "so") && !asGoesOn.MatchString(after)
}

// asGoesOn is the rest of an as-clause after its conjunction: "(as it
// is and) always was our default".
var asGoesOn = lazyre.New(`^(?:(?:always|still|also|has|have|had|will|would) )*(?:is|was|are|were|be|been)\b`)

// HasValue reports whether s holds a value an environment fact would: a
// port, a URL, a version, a path, a host, a variable, a command.
func HasValue(s string) bool { return envValue.MatchString(s) }

// NamesValue reports whether s names a port, a version number or a URL.
func NamesValue(s string) bool {
	return portRE.MatchString(s) || versionNum.MatchString(s) || urlRE.MatchString(s)
}

// HasPort reports whether s names a port ("on port 5433", ":8080",
// "localhost:5080", "192.168.1.20:1883"): where something runs, whatever
// the verb.
func HasPort(s string) bool { return portValue.MatchString(s) }

var portValue = lazyre.New(`(?i)\bport\s*:?\s*\d{2,5}\b|\bport (?:is |was )?(?:published|mapped|forwarded|exposed)\b[^.;\d]{0,30}\bas \d{2,5}\b|\blocalhost:\d{2,5}\b|[\w.-]+\.[a-z]{2,}:\d{2,5}\b|\b\d{1,3}(?:\.\d{1,3}){3}:\d{2,5}\b`)

// HasURL reports whether s holds a URL.
func HasURL(s string) bool { return urlRE.MatchString(s) }

// URLs are the URLs s names, as written.
func URLs(s string) []string { return urlRE.FindAllString(s, -1) }

// HasRegion reports whether s names a cloud region ("eu-west-1",
// "europe-west4", "westeurope"): like a URL, where something runs.
func HasRegion(s string) bool { return regionRE.MatchString(s) }

var regionRE = lazyre.New(`\b(?:(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:gov-)?(?:east|west|north|south|central|northeast|northwest|southeast|southwest)-\d|(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:east|west|north|south|central|northeast|northwest|southeast|southwest)\d{1,2}|(?:east|west|north|south|central|westcentral|northcentral|southcentral)(?:us|europe|asia)\d?|uksouth|ukwest|germanywestcentral|francecentral|swedencentral)\b`)

// DropLeadIn removes talk before the point: "OK, ", "Decided: ", "FYI ".
func DropLeadIn(s string) string { return leadIn.ReplaceAllString(s, "") }

// TrimLead removes lead-in words ("OK, so", "Decision:") and capitalises;
// s as it is when too little would be left.
func TrimLead(s string) string {
	t := DropLeadIn(s)
	if len(t) < 8 {
		return s
	}
	return Capitalize(t)
}

// MeasureSwap reports whether s gives a measure in place of another
// ("wait hours instead of seconds", "returns 404 instead of 200"): how a
// symptom is told, or a change when s says what now holds.
func MeasureSwap(s string) bool { return measureSwap.MatchString(s) }

var measureSwap = lazyre.New(`(?i)\b(?:\d[\d.,]*\s*)?(?:ms|milliseconds?|secs?|seconds?|minutes?|mins?|hours?|days?|weeks?|bytes?|[kmg]b|%|x|times|\d[\d.,]*)\s+(?:instead of|rather than)\s+(?:\d[\d.,]*\s*)?(?:ms|milliseconds?|secs?|seconds?|minutes?|mins?|hours?|days?|weeks?|bytes?|[kmg]b|%|x|times|\d[\d.,]*)\b`)

// MissingNames returns the words and file names of s, in lower case,
// when s says a thing is not there yet ("the repo has no Dockerfile
// yet"), nil otherwise: the file written later that answers it is one of
// them.
func MissingNames(s string) map[string]bool {
	if !missingRE.MatchString(s) {
		return nil
	}
	names := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '_' && r != '-'
	}) {
		names[strings.TrimRight(w, ".")] = true
	}
	return names
}

var missingRE = lazyre.New(`(?i)\b(?:no|missing|lacks?|without|doesn't exist|does not exist|isn't there|is not there|not there)\b`)
