package prose

import (
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A setting is named in code or in words, and given its value by an
// operator, a preposition or a verb between them: "requires-python
// >=3.9", "bump max_conns to 50", "'retry_after' => 300",
// "readTimeout(45, …)", "the retry_after stays at 90", "set the okhttp
// read timeout to 20 seconds". A value said to be past ("was 90") is
// not given, and "from 3.9 to 3.11" gives the last.
var (
	// settingVerb may stand between a setting and its value.
	settingVerb = `(?:\s+(?:is|are|now|still|stays?|remains?|kept|set|raised|lowered|bumped|increased|decreased|reduced|cut|changed|goes|moved|back|up|down))*`
	settingOp   = `\s*["'` + "`" + `]?\s*(?:=>|=|:|\bto\b|\bis\b|\bat\b|\bof\b|\bfrom \S+ to\b)?(?:\s+now)?\s*["'` + "`" + `]?\s*(?:>=|<=|~=|==|~>|\^|>|<)?\s*v?(\d+(?:\.\d+)*(?:;\d+(?:\.\d+)*)*)\b`
	// settingRE is a key spelled as code, with "-", "_" or "." inside:
	// requires-python, max_conns, server.port.
	settingRE = lazyre.New(`(?i)\b([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)["'` + "`" + `]?` + settingKind + settingWhere + settingVerb + settingOp)
	// settingWhere is the file a key is set in, said between the key
	// and its value: "DOWNLOAD_DELAY in settings.py is 1.5".
	settingWhere = `(?:\s+in\s+` + "`?" + `[\w./-]+\.[a-z]+` + "`?" + `)?`
	// settingKind may name what the key is: "an ORT_THREADS environment
	// variable set to 2".
	settingKind = `(?:\s+(?:env(?:ironment)?\s+)?(?:variable|var|setting|option|flag|parameter|property))?`
	// settingWordRE is a key spelled as code given one of the words
	// settings take as values: a log level, a switch, a size.
	settingWordRE = lazyre.New(`(?i)\b([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)["'` + "`" + `]?` + settingVerb + `\s*["'` + "`" + `]?\s*(?:=|:|\bto\b|\bat\b|\bon\b|\bis\b)\s*["'` + "`" + `]?(trace|debug|info|warn|warning|error|true|false|enabled|disabled|x-?small|small|medium|large|x-?large|strict|lax)\b`)
	// settingLitRE is a key spelled as code given an enum's case
	// (".mitchell", ":info"); "to" gives it only after a verb that sets
	// ("changed default_filter to .lanczos3"), since "added node_modules
	// to .gitignore" names a file. A quoted name is not taken: many
	// things have a unique_key, each its own.
	settingLitRE = lazyre.New(`(?i)(\b(?:set|sets|changed?|changes|switch(?:ed|es)?|flip(?:ped|s)?)\s+(?:the\s+)?)?\b([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)["'` + "`" + `]?` + settingVerb + `\s*["'` + "`" + `]?\s*(=|:|\bto\b|\bis\b)(?:\s+now)?\s*(?:` + "`" + `\s*)?([.:][a-z][a-z0-9_]*)(?:[^\w./-]|\.(?:\s|$)|$)`)
	// dottedWordRE is a property key with a dot inside given a word of
	// its own, as Java and Kafka configs are written: "snapshot.mode
	// initial", "plugin.name pgoutput", "decimal.handling.mode=precise".
	dottedWordRE = lazyre.New(`\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*)+)["'` + "`" + `]?(\s*=\s*|\s*:\s+|\s+)["'` + "`" + `]?([a-z][a-z0-9]*(?:[_-][a-z0-9]+)*)["'` + "`" + `]?(?:[\s,;:)]|\.(?:\s|$)|$)`)
	// notWordValue are words after a key that give it no value: "the
	// server.port setting", "vim.notify gets swallowed".
	notWordValue = words{list: `setting settings option options property properties value values key keys flag flags config
		event events message messages handler handlers hook hooks webhook webhooks call calls request requests
		parameter parameters file files instead only too also now again here there anymore works worked breaks broke
		fails failed returns returned`}
	// camelRE is a key spelled in camel case, also as a call:
	// maxRetries = 5, readTimeout(45, TimeUnit.SECONDS).
	camelRE = lazyre.New(`\b([a-z]+(?:[A-Z][a-z0-9]*)+)(?:\(|` + settingVerb + settingOp + `)`)
	// pascalRE is a key spelled as a template or C# property is:
	// "MemorySize 1536", "TimeoutSeconds: 30", "ReservedConcurrentExecutions = 5".
	// Its last word says it holds a quantity: "GetUser 200",
	// "PlayStation 5" and "MacBook 2019" are no settings.
	pascalRE = lazyre.New(`\b((?:[A-Z][a-z0-9]+)+(?:Size|Timeout|Limit|Count|Max|Min|Concurrency|Executions|Memory|Retries|Attempts|Seconds|Minutes|Interval|Capacity|Port|Level|Threshold|Depth|Length|Rate|Ttl|TTL|Workers|Replicas|Threads|Duration|Period|Delay|Quota|Budget|Percent|Sec|USec|MSec|Ms|Mb|MB|Gb|GB))` + settingVerb + settingOp)
	// flagEq is a key of one word set with "=" and no space, as ZFS
	// properties, sysctls and mount options are written: ashift=12,
	// recordsize=1M, vm.swappiness=10 is settingRE's.
	flagEq = lazyre.New(`(?:^|[\s(` + "`" + `])([a-z][a-z0-9]{2,})=(\d+(?:\.\d+)?[kmgtKMGT]?)(?:[\s,;:)` + "`" + `]|\.(?:\s|$)|$)`)
	// logField are keys a log line or a loop gives values, no setting:
	// "status=503 pid=4312", "for idx=0".
	logField = words{list: `status pid tid uid gid code line idx exit errno ret err rc len count id took elapsed duration latency seq offset`}
	camelArg = lazyre.New(`\b([a-z]+(?:[A-Z][a-z0-9]*)+)\(\s*(\d+(?:\.\d+)*)\b`)
	// phraseRE is a key in words that ends in a noun that holds a
	// quantity: "read timeout", "retry delay", "batch size", "baud rate";
	// its value may follow a label's verb ("For the pool: go to 20").
	phraseRE = lazyre.New(`(?i)\b(?:([a-z][a-z0-9]+)[ -])?(timeout|port|limit|size|interval|delay|ttl|retries|threshold|budget|replicas|workers|concurrency|rate|baud|heap|buffer|pool|capacity|quota|deadline|backoff|window|period|lifetime|expiry|max|min)` + settingVerb + `\s*(?:=|:|\bto\b|\bis\b|\bat\b|\bof\b)(?:\s+now)?(?:\s+(?:go|set it|make it|take it|bump it|raise it|drop it|cut it|keep it)\s+(?:to|at))?\s+v?(\d+(?:\.\d+)*)\b`)
	// notKey are words before a quantity noun that do not say which
	// one it is: "the timeout", "a higher rate".
	notKey = words{list: `the a an this that our its their his her my your any no new old higher lower bigger smaller longer shorter default same other each every per current whole total`}
)

// Settings are the named settings a statement gives a value, key →
// value (the last one when it names a key twice). Keys are reduced to
// their letters and digits in lower case, so that retry_after,
// retry-after, readTimeout and "read timeout" each meet their other
// spellings.
func Settings(text string) map[string]string {
	out := map[string]string{}
	if !strings.ContainsAny(text, "0123456789") {
		// Only a word value can be given: the numeric patterns, which
		// cost most, cannot match.
		addWordSettings(out, text)
		return out
	}
	for _, i := range settingRE.FindAllStringSubmatchIndex(text, -1) {
		if rest := text[i[1]:]; apart.MatchString(rest) && !apartFrom.MatchString(rest) {
			continue // "booked_at 18 ms apart" is a difference
		}
		if i[3] == i[4] && gluedName(text[:i[3]]) {
			// A number glued to a key is part of a name (but for the
			// last digit of a name's number, macos-14 once it is
			// macos-15): python3.13 is no key python3.1 set to 3,
			// Detect-BitLocker.ps1 no key set to 1, FV1-FV8 (eight
			// tanks) no key FV1-FV set to 8.
			continue
		}
		if k := strings.ToLower(text[i[2]:i[3]]); isKeyName(k) {
			out[settingKey(k)] = text[i[4]:i[5]]
		}
	}
	addWordSettings(out, text)
	if strings.Contains(text, "=") {
		for _, m := range flagEq.FindAllStringSubmatch(text, -1) {
			if !logField.has(strings.ToLower(m[1])) {
				out[settingKey(m[1])] = m[2]
			}
		}
	}
	for _, m := range camelArg.FindAllStringSubmatch(text, -1) {
		out[settingKey(m[1])] = m[2]
	}
	for _, m := range camelRE.FindAllStringSubmatch(text, -1) {
		if m[2] != "" {
			out[settingKey(m[1])] = m[2]
		}
	}
	for _, m := range pascalRE.FindAllStringSubmatchIndex(text, -1) {
		if rest := text[m[1]:]; strings.HasPrefix(rest, " times") || strings.HasPrefix(rest, "x ") {
			continue // "CreateBooking 2 times" counts calls
		}
		out[settingKey(text[m[2]:m[3]])] = text[m[4]:m[5]]
	}
	for _, m := range phraseRE.FindAllStringSubmatch(text, -1) {
		// A bare "timeout" or "port" could be any of several.
		q := strings.ToLower(m[1])
		if q == "" || notKey.has(q) || stopWords.has(q) {
			continue
		}
		out[settingKey(q+m[2])] = m[3]
	}
	addCounts(out, text)
	addRates(out, text)
	addServers(out, text)
	return out
}

// apart after a value makes it a difference between two things.
var apart = lazyre.New(`^\s*[a-zµ]*\s+apart\b`)

// apartFrom is "apart from", except: "MAX_WORKERS=8 apart from CI" sets
// the value.
var apartFrom = lazyre.New(`^\s*[a-zµ]*\s+apart from\b`)

// A server's address is given as a URL ("postgresql://app@pg.internal:6432/app")
// or in words beside the server's kind ("Postgres: host db-crawl-01, port
// 5432"): its host and port are settings of that kind of server, so
// that each spelling meets the other.
var (
	serverURL  = lazyre.New(`(?i)\b(postgres(?:ql)?|mysql|mariadb|redis|rediss|mongodb(?:\+srv)?|amqps?|nats|kafka|clickhouse)://(?:[^@\s/` + "`" + `]*@)?([a-z0-9][\w.-]*[a-z0-9])(?::(\d+))?`)
	serverKind = lazyre.New(`(?i)\b(` + serverKinds + `)\b([^.;()]{0,60})`)
	serverHost = lazyre.New(`(?i)\bhost(?:name)?\b\s*(?:=|:|\bis\b)?\s*` + "`?" + `([a-z0-9][\w.-]*[a-z0-9])`)
	serverPort = lazyre.New(`(?i)\bport\s*(?:=|:|\bis\b)?\s*(\d{2,5})\b`)
	// serverName is the name of a kind of server, which ends the words
	// about the one before it.
	serverName = lazyre.New(`(?i)\b(?:` + serverKinds + `)\b`)
	// hostPort is a host and a port with no scheme: "db-crawl-01:5432";
	// a mail submission port is shorter ("mail.example.org:587").
	hostPort = lazyre.New(`(?i)(?:^|[\s(` + "`" + `'"@=])([a-z][\w-]*(?:\.[\w-]+)*[a-z0-9]):(\d{4,5}|465|587)\b`)
	// hostOnPort is a host's name and its port in words:
	// "mail.rc-weserstein.de on port 587", "smtp.mailbox.org port 465".
	hostOnPort = lazyre.New(`(?i)(?:^|[\s(` + "`" + `'"@=])([a-z][\w-]*(?:\.[\w-]+)+[a-z0-9])(?:,)?\s+(?:on\s+|at\s+)?port\s+(\d{2,5})\b`)
)

// serverKinds are the kinds of server named in words.
const serverKinds = `postgres(?:ql)?|mysql|mariadb|redis|mongodb|mongo|rabbitmq|nats|kafka|clickhouse|smtp`

// wellKnownPort is the kind of server that listens on port p when
// nothing else says which; "" for another port.
func wellKnownPort(p string) string {
	switch p {
	case "5432":
		return "postgres"
	case "3306":
		return "mysql"
	case "6379":
		return "redis"
	case "27017":
		return "mongo"
	case "5672":
		return "amqp"
	case "4222":
		return "nats"
	case "9092":
		return "kafka"
	case "465", "587":
		return "smtp" // the submission port of the mail server a project sends through: one at a time
	}
	return ""
}

// addServers adds the hosts and ports of the servers text names, keyed
// by the server's kind: postgreshost, postgresport. A host and port with
// no kind named ("db-crawl-01:5432") take the kind of a well-known port.
func addServers(out map[string]string, text string) {
	if !strings.Contains(text, ":") && !strings.Contains(strings.ToLower(text), "host") && !strings.Contains(strings.ToLower(text), "port") {
		return
	}
	for _, m := range serverURL.FindAllStringSubmatch(text, -1) {
		kind := serverKindOf(m[1])
		out[kind+"host"] = strings.ToLower(m[2])
		if m[3] != "" {
			out[kind+"port"] = m[3]
		}
	}
	for _, re := range []*lazyre.Regexp{hostPort, hostOnPort} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if kind := wellKnownPort(m[2]); kind != "" && !strings.EqualFold(m[1], "localhost") {
				if _, ok := out[kind+"host"]; !ok {
					out[kind+"host"], out[kind+"port"] = strings.ToLower(m[1]), m[2]
				}
			}
		}
	}
	for _, m := range serverKind.FindAllStringSubmatch(text, -1) {
		kind, words := serverKindOf(m[1]), m[2]
		if i := serverName.FindStringIndex(words); i != nil {
			words = words[:i[0]] // "Redis sits next to Postgres, port 5433": Postgres's port
		}
		if h := serverHost.FindStringSubmatch(words); h != nil && strings.ContainsAny(h[1], ".-0123456789") {
			if _, ok := out[kind+"host"]; !ok {
				out[kind+"host"] = strings.ToLower(h[1])
			}
		}
		if p := serverPort.FindStringSubmatch(words); p != nil {
			if _, ok := out[kind+"port"]; !ok {
				out[kind+"port"] = p[1]
			}
		}
	}
}

// serverKindOf is the one name of a kind of server however it is
// spelled: postgresql and Postgres, mongodb+srv and Mongo.
func serverKindOf(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, "postgres"):
		return "postgres"
	case strings.HasPrefix(s, "mongo"):
		return "mongo"
	case strings.HasPrefix(s, "redis"):
		return "redis"
	case strings.HasPrefix(s, "amqp"), s == "rabbitmq":
		return "amqp"
	case s == "mariadb":
		return "mysql"
	}
	return s
}

// rateRE is a rate limit or a throughput: "300 requests per rolling 60
// seconds", "600 requests a minute", "20 jobs/s".
var rateRE = lazyre.New(`(?i)\b(\d+)\s+(requests|calls|jobs|messages|events|emails|queries)\s*(?:per|a|an|every|/)\s*(?:rolling\s+|sliding\s+)?(?:(\d+)\s*)?(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hours?|days?)\b`)

// addRates adds the rates text gives, keyed by what is counted ("requests
// rate"), in that thing per second, so that "300 requests per 60 seconds"
// and "5 requests a second" are one value.
func addRates(out map[string]string, text string) {
	for _, m := range rateRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.ParseFloat(m[1], 64)
		per := 1.0
		if m[3] != "" {
			per, _ = strconv.ParseFloat(m[3], 64)
		}
		secs := unitSeconds[durationUnit(m[4])]
		if per <= 0 || secs == 0 {
			continue
		}
		out[settingKey(strings.ToLower(m[2])+"rate")] = strconv.FormatFloat(n/(per*secs), 'g', 6, 64)
	}
	for _, m := range rateAbbrRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.ParseFloat(m[1], 64)
		what, per := "requests", 1.0
		switch u := strings.ToLower(m[2]); {
		case u == "qps":
			what = "queries"
		case u == "rpm" || strings.HasSuffix(u, "/min") || strings.HasSuffix(u, "/m"):
			per = 60
		}
		out[settingKey(what+"rate")] = strconv.FormatFloat(n/per, 'g', 6, 64)
	}
}

// rateAbbrRE is a rate in its short spellings: "100 r/s", "60 req/s",
// "500 rps", "40 qps".
var rateAbbrRE = lazyre.New(`(?i)\b(\d+)\s?(r/s|req/s|reqs/s|requests/s|rps|qps|r/m|req/min|requests/min|rpm)(?:\W|$)`)

// countRE is a number of the things a setting counts: "4 threads",
// "three frames in flight".
var countRE = lazyre.New(`(?i)\b(\d+|two|three|four|five|six|eight|ten|twelve|sixteen)\s+(threads|workers|replicas|connections|retries|shards|partitions|pods|nodes|instances|processes|consumers|executors|slots|frames in flight)\b`)

// countVerbs stand between what has a count and the count: "both
// targets run with 4 threads".
var countVerbs = words{list: `run runs running ran with use uses using used has have had get gets got at to on is are was were now only still both all each just keep keeps kept set make made allow allows give gives gets up down by of for`}

// addCounts adds the counts text gives, keyed by what has them: "both
// targets run with 4 threads" gives targets threads 4. A count with
// nothing named before it could be any.
func addCounts(out map[string]string, text string) {
	for _, m := range countRE.FindAllStringSubmatchIndex(text, -1) {
		before := strings.Fields(strings.ToLower(text[max(0, m[0]-60):m[0]]))
		owner := ""
		for i := len(before) - 1; i >= 0 && i >= len(before)-4; i-- {
			w := strings.Trim(before[i], ".,;:()`'\"")
			if w == "" || countVerbs.has(w) || notKey.has(w) || stopWords.has(w) {
				continue
			}
			if strings.ContainsAny(before[i], ".,;:") || !isWord(w) {
				break
			}
			owner = w
			break
		}
		if owner == "" {
			continue
		}
		out[settingKey(Stem(owner)+text[m[4]:m[5]])] = numberWord(strings.ToLower(text[m[2]:m[3]]))
	}
}

// isWord reports whether w is letters only.
func isWord(w string) bool {
	return w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz-") == ""
}

// numberWord is a count in digits.
func numberWord(w string) string {
	if n, ok := map[string]string{"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "eight": "8", "ten": "10", "twelve": "12", "sixteen": "16"}[w]; ok {
		return n
	}
	return w
}

// addWordSettings adds the settings text gives a word value.
func addWordSettings(out map[string]string, text string) {
	for _, m := range dottedWordRE.FindAllStringSubmatch(text, -1) {
		v := m[3]
		if stopWords.has(v) || notWordValue.has(v) || !isKeyName(m[1]) {
			continue
		}
		if strings.TrimSpace(m[2]) == "" && !strings.Contains(v, "_") && (strings.HasSuffix(v, "s") || strings.HasSuffix(v, "ed") || strings.HasSuffix(v, "ing")) {
			continue // "vim.notify gets swallowed": a verb, not a value
		}
		out[settingKey(m[1])] = v
	}
	for _, m := range settingWordRE.FindAllStringSubmatch(text, -1) {
		if k := strings.ToLower(m[1]); isKeyName(k) {
			out[settingKey(k)] = strings.ToLower(m[2])
		}
	}
	for _, m := range settingLitRE.FindAllStringSubmatch(text, -1) {
		if strings.EqualFold(m[3], "to") && m[1] == "" {
			continue
		}
		if k := strings.ToLower(m[2]); isKeyName(k) {
			if _, ok := out[settingKey(k)]; !ok {
				out[settingKey(k)] = strings.ToLower(strings.Trim(m[4], ".:"))
			}
		}
	}
}

// isKeyName reports whether k, spelled as code, names a setting rather
// than a version or a file.
func isKeyName(k string) bool {
	return !versionNum.MatchString(k) && !(strings.Contains(k, ".") && len(paths(k)) > 0)
}

// settingKey is a setting's name reduced to its letters and digits.
func settingKey(k string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, k)
}

// BareSettings are the quantities text gives a noun that names no
// setting on its own ("cut the pool to 6": pool → 6), which Settings
// leaves out: one of several timeouts or ports could be meant. Only a
// setting spelled in code that holds the noun can be the one
// (BareConflict).
func BareSettings(text string) map[string]string {
	if !strings.ContainsAny(text, "0123456789") {
		return nil
	}
	var out map[string]string
	for _, ix := range phraseRE.FindAllStringSubmatchIndex(text, -1) {
		if ix[1] < len(text) && text[ix[1]] == '%' {
			continue // "replicas at 70% CPU": a share, not the quantity
		}
		q := ""
		if ix[2] >= 0 {
			q = strings.ToLower(text[ix[2]:ix[3]])
		}
		if q == "" || notKey.has(q) || stopWords.has(q) {
			if out == nil {
				out = map[string]string{}
			}
			out[strings.ToLower(text[ix[4]:ix[5]])] = text[ix[6]:ix[7]]
		}
	}
	return out
}

// BareConflict reports whether a bare quantity gives the one setting of
// settings that holds its noun ("the pool to 6" and "maximumPoolSize
// 10") another value.
func BareConflict(bare, settings map[string]string) bool {
	for noun, v := range bare {
		key, n := "", 0
		for k := range settings {
			if strings.Contains(k, noun) {
				key, n = k, n+1
			}
		}
		if n == 1 && settings[key] != v {
			return true
		}
	}
	return false
}

// SettingsConflict reports whether two statements' settings give one
// setting different values.
func SettingsConflict(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; ok && w != v {
			return true
		}
	}
	return false
}

// namedKinds are kinds of thing a project names and later renames or
// replaces: a profile, a workspace, a bucket.
const namedKinds = `profile|workspace|namespace|cluster|bucket|registry|region|zone|account|project|tenant|database|schema|keyspace|queue|topic|stack|context|branch|realm|selector|alias|pool|volume|channel`

// renumbered is what a new name adds to the old one's end: a number.
var renumbered = lazyre.New(`^[-_.]?v?\d+(?:\.\d+)*$`)

var (
	// namedAfter is a kind and the name after it: "profile
	// lakehouse-stg2", "the profile in ~/.databrickscfg is called
	// lakehouse-stg", "namespace: billing-prod".
	namedAfter = lazyre.New(`(?i)\b(` + namedKinds + `)(?:\s+(?:in|of|for)\s+\S+)?\s*(?:(?:is\s+)?(?:now\s+)?(?:called|named)\s+|(?:is|are)\s+(?:now\s+)?|=\s*|:\s*|\s)["'` + "`" + `]?([a-z0-9][\w.-]*[-_.0-9][\w.-]*)`)
	// namedBefore is a name before its kind: "the lakehouse-stg2
	// profile".
	namedBefore = lazyre.New(`(?i)\bthe\s+["'` + "`" + `]?([a-z0-9][\w.-]*[-_.0-9][\w.-]*)["'` + "`" + `]?\s+(` + namedKinds + `)\b`)
)

// Named are the names text gives things of a kind a project names, kind
// → name: "profile lakehouse-stg2" gives profile → lakehouse-stg2. A
// name holds a dash, a dot, an underscore or a digit, and is not a
// number alone.
func Named(text string) map[string]string {
	var out map[string]string
	var two []string // kinds given two names: which is meant is unknown
	put := func(kind, name string) {
		name = strings.ToLower(strings.TrimRight(name, ".-_"))
		if name == "" || strings.Trim(name, "0123456789.") == "" {
			return
		}
		if out == nil {
			out = map[string]string{}
		}
		kind = strings.ToLower(kind)
		if had, ok := out[kind]; ok && had != name {
			two = append(two, kind)
		}
		out[kind] = name
	}
	for _, m := range namedAfter.FindAllStringSubmatch(text, -1) {
		put(m[1], m[2])
	}
	for _, m := range namedBefore.FindAllStringSubmatch(text, -1) {
		put(m[2], m[1])
	}
	for _, k := range two {
		delete(out, k)
	}
	return out
}

// Renamed reports whether newer gives a kind of thing older names
// another name that is it with a number added or taken off:
// lakehouse-stg became lakehouse-stg2, acme-raw became acme-raw-v2.
// Another word added (orders-events, orders-events-dlq) names a sibling,
// and names with nothing in common may be two things of one kind (a dev
// and a prod profile).
func Renamed(older, newer map[string]string) bool {
	for k, a := range older {
		b, ok := newer[k]
		if !ok || a == b {
			continue
		}
		short, long := a, b
		if len(short) > len(long) {
			short, long = long, short
		}
		if len(short) >= 4 && strings.HasPrefix(long, short) && renumbered.MatchString(long[len(short):]) {
			return true
		}
		if n := len(a); n >= 5 && len(b) == n && a[:n-1] == b[:n-1] && isWordByte(a[n-1]) && isWordByte(b[n-1]) {
			return true // the next of a series: selector s2026a → s2026b, blue-1 → blue-2
		}
	}
	return false
}

// gluedName reports whether key, a setting's key with a number glued to
// it, is a name: its last part after a dot, or one not all digits.
func gluedName(key string) bool {
	sep := strings.LastIndexAny(key, "_.-") // settingRE's key has one
	return key[sep] == '.' || !IsDigits(key[sep+1:])
}

// IsDigits reports whether s is one or more ASCII digits.
func IsDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
