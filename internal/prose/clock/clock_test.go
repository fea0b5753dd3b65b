package clock

import (
	"reflect"
	"testing"

	"github.com/cairn-mem/cairn/internal/prose"
)

func TestTimes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []prose.Claim
	}{
		{"Production sheet: it should print by itself at 21:00 on the office Brother.", []prose.Claim{{Subject: "print time", Values: []string{"21:00"}}}},
		{"With the shift starting at 20:00 the production sheet can't wait for 9pm any more: the cron job prints it at 19:00 now.", []prose.Claim{{Subject: "cron job print time", Values: []string{"19:00"}}}}, // the clause that says what no longer holds gives nothing
		{"The half is at 19:00 for 19:30 shows; the restart lock runs 19:00 to 22:30.", []prose.Claim{{Subject: "half time", Values: []string{"19:00"}}, {Subject: "restart lock time", Values: []string{"19:00-22:30"}}}},
		{"Curtain up moved to 19:45, the half to 19:15; the restart lock is 19:15 to 22:45.", []prose.Claim{{Subject: "curtain time", Values: []string{"19:45"}}, {Subject: "half time", Values: []string{"19:15"}}, {Subject: "restart lock time", Values: []string{"19:15-22:45"}}}},
		{"The nightly job moved from 02:15 to 03:30.", []prose.Claim{{Subject: "job time", Values: []string{"03:30"}}}},
		{"ops-02 runs Ubuntu 24.04 with Python 3.12 at 10.20.0.11", nil},
		{"It takes 12 to 15 minutes.", nil},
	} {
		if got := Times(tc.s); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Times(%q)\n got %+v\nwant %+v", tc.s, got, tc.want)
		}
	}
}
