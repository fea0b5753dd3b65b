package prose

import (
	"slices"
	"strings"
	"testing"
)

func TestDurations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // subject=value per clause
	}{
		{"Access tokens live 15 minutes, refresh tokens 30 days.", []string{"access token duration=900s", "refresh token duration=2592000s"}},
		{"The reset link now stays valid for an hour.", []string{"reset link duration=3600s"}},
		{"Make reset links last a quarter of an hour and the job half an hour", []string{"reset link duration=900s", "job duration=1800s"}},
		{"The timeout moved from 30 seconds to 2 minutes.", []string{"timeout duration=120s"}},
		{"Upload URLs are signed with HS256 and expire after 10 minutes.", []string{"upload urls duration=600s"}},
		{"The nightly export writes to S3, and after 30 days the files move to Glacier.", nil},
		{"The build takes three quarters of an hour.", []string{"build duration=2700s"}},
		{"The build takes an hour and a half.", []string{"build duration=5400s"}},
		{"No duration here.", nil},
	} {
		var got []string
		for _, c := range Durations(tc.in) {
			got = append(got, c.Subject+"="+strings.Join(c.Values, ","))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Durations(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
