package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	"short": func(s string) string {
		if len(s) > 10 {
			return s[:10]
		}
		return s
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"num":  func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
	"mark": mark,
	"esc":  url.PathEscape,
	"query": func(q url.Values, k string) string {
		if q == nil {
			return ""
		}
		return q.Get(k)
	},
	"has": func(q url.Values, k, v string) bool {
		for _, s := range q[k] {
			if s == v {
				return true
			}
		}
		return false
	},
	"op":   func(b byte) string { return string(b) },
	"list": func(s ...string) []string { return s },
	"hasPrefix": func(s string, prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(s, p) {
				return true
			}
		}
		return false
	},
	"sessionOf": sessionOf,
	"navs":      func() []nav { return navs },
	"kib":       func(n int64) string { return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) },
}

// mark turns a snippet's «matched» words into <mark> elements, the rest
// escaped.
func mark(s string) template.HTML {
	var b strings.Builder
	for s != "" {
		i := strings.Index(s, "«")
		if i < 0 {
			b.WriteString(template.HTMLEscapeString(s))
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		s = s[i+len("«"):]
		j := strings.Index(s, "»")
		if j < 0 {
			b.WriteString(template.HTMLEscapeString(s))
			break
		}
		b.WriteString("<mark>" + template.HTMLEscapeString(s[:j]) + "</mark>")
		s = s[j+len("»"):]
	}
	return template.HTML(b.String())
}

// sessionOf returns the session id of a path in a session's folder
// (sessions/ID/FILE, archive/YYYY/MM/ID/FILE), or "".
func sessionOf(p string) string {
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 3 && parts[0] == "sessions":
		return parts[1]
	case len(parts) == 5 && parts[0] == "archive":
		return parts[3]
	}
	return ""
}

// nav is an entry of the menu.
type nav struct{ ID, Name, Href string }

var navs = []nav{
	{"overview", "Overview", "/ui/"},
	{"timeline", "Timeline", "/ui/timeline"},
	{"sessions", "Sessions", "/ui/sessions"},
	{"memory", "Memory", "/ui/memory"},
	{"search", "Search", "/ui/search"},
	{"context", "Next context", "/ui/context"},
	{"queue", "Queue", "/ui/queue"},
	{"metrics", "Metrics", "/ui/metrics"},
}
