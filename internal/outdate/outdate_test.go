package outdate

import (
	"slices"
	"testing"
)

// A line of the pack names its statement once the pack's marks are off.
func TestStatementForms(t *testing.T) {
	for _, c := range []struct {
		in        string
		want      []string
		shortened bool
	}{
		{"- Decision: Jobs are claimed by rename(2) — rename is atomic.", []string{"jobs are claimed by rename(2) — rename is atomic"}, false},
		{"- Request (done): Commit it with a short message.", []string{"commit it with a short message"}, false},
		{"- Ask Priya about the refund SLA. (session 3f1c9a52)", []string{"ask priya about the refund sla"}, false},
		{"- **The API listens on 8080**: config/server.yaml sets it. (fact, Dec 6, id 4ACHN2NN)", []string{"the api listens on 8080", "**the api listens on 8080**: config/server.yaml sets it"}, false},
		{"- Backoff is in place: `base << n`, capped at 30s, scaled by a uniform…", []string{"backoff is in place: `base << n`, capped at 30s, scaled by a uniform"}, true},
		{"The API listens on 8080", []string{"the api listens on 8080"}, false},
		{"  ", nil, false},
	} {
		got, short := statementForms(c.in)
		if !slices.Equal(got, c.want) || short != c.shortened {
			t.Errorf("statementForms(%q) = %q, %t; want %q, %t", c.in, got, short, c.want, c.shortened)
		}
	}
}
