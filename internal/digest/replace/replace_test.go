package replace

import (
	"fmt"
	"testing"
)

func TestValueEditOf(t *testing.T) {
	for _, tc := range []struct{ was, now, want string }{
		{"reminders: 3", "reminders: 15", "[reminde] 3 → 15"},
		{"maximumPoolSize = 10", "maximumPoolSize = 20", "[maximum pool size] 10 → 20"},
		{`- "5433:5432"`, `- "5432:5432"`, "<nil>"}, // a port pair: no name
		{"timeout = 30 # was 20", "timeout = 45 # was 30", "<nil>"},
		{"name = old", "name = new", "<nil>"},
		{"retries: 3, timeout: 10", "retries: 3, timeout: 20", "[timeout] 10 → 20"},
		{"ratio: 0.5", "ratio: 0.25", "[ratio] 0.5 → 0.25"},
	} {
		got := "<nil>"
		if e := EditOf(tc.was, tc.now); e != nil {
			got = fmt.Sprintf("%v %s → %s", e.keys, e.old, e.new)
		}
		if got != tc.want {
			t.Errorf("EditOf(%q, %q) = %s, want %s", tc.was, tc.now, got, tc.want)
		}
	}
}

func TestHostPortAndLowerBound(t *testing.T) {
	for _, tc := range []struct{ was, now, port, bound string }{
		{`"3000:3000"`, `"3001:3000"`, "3000", ""},
		{`"3000:3000"`, `"3000:3001"`, "", ""},
		{"at 02:30", "at 03:30", "", ""}, // a time of day
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081", "8080@127.0.0.1:8080", ""},
		{`"grafanaDependency": ">=11.3.0"`, `"grafanaDependency": ">=11.5.0"`, "", "11.3 grafanaDependency"},
		{`"node": ">=18.0.0"`, `"node": ">=20.0.0"`, "", "18 node"},
		{">=11.3.0", ">=11.5.0", "", "11.3 "},
	} {
		port := ""
		if p := HostPort(tc.was, tc.now); p != nil {
			port = p.Port
			if p.At != "" {
				port += "@" + p.At
			}
		}
		if port != tc.port {
			t.Errorf("HostPort(%q, %q) = %q, want %q", tc.was, tc.now, port, tc.port)
		}
		bound := ""
		if b := LowerBound(tc.was, tc.now); b != nil {
			bound = b.Version + " " + b.Name
		}
		if bound != tc.bound {
			t.Errorf("LowerBound(%q, %q) = %q, want %q", tc.was, tc.now, bound, tc.bound)
		}
	}
	for _, tc := range []struct {
		was, now, x string
		want        bool
	}{
		{`"react": "^18.0.0"`, `"react": "^19.0.0"`, "Node 18+ is required.", false},
		{`"node": ">=18.0.0"`, `"node": ">=20.0.0"`, "Node 18+ is required.", true},
		{`"grafanaDependency": ">=11.3.0"`, `"grafanaDependency": ">=11.5.0"`, "We support Grafana 11.3 and up, nothing older.", true},
		{">=11.3.0", ">=11.5.0", "We support Grafana 11.3 and up, nothing older.", true},
		{">=11.3.0", ">=11.5.0", "We test against Grafana 11.3.", false},
	} {
		if got := LowerBound(tc.was, tc.now).Says(tc.x); got != tc.want {
			t.Errorf("LowerBound(%q, %q).Says(%q) = %v", tc.was, tc.now, tc.x, got)
		}
	}
	if f, v, ok := WritesValue("printf '22.11.0\\n' > .nvmrc"); !ok || f != ".nvmrc" || v != "22.11.0" {
		t.Errorf("WritesValue = %q %q %v", f, v, ok)
	}
}
