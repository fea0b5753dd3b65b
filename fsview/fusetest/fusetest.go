// Package fusetest decides, for tests that mount a FUSE file system,
// whether they run: they skip only where FUSE cannot work, and never when
// CAIRN_TEST_FUSE=require (as in CI), where a skip is a failure.
package fusetest

import (
	"os"
	"testing"

	"github.com/cairn-mem/cairn/fsview"
)

// Env is the variable that, set to "require", makes a FUSE test fail
// instead of skipping.
const Env = "CAIRN_TEST_FUSE"

// Need skips or fails t when this process cannot mount FUSE.
func Need(t testing.TB) {
	t.Helper()
	if err := fsview.Available(); err != nil {
		Unavailable(t, err)
	}
}

// Unavailable skips t because FUSE does not work here, or fails it when
// CAIRN_TEST_FUSE=require.
func Unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv(Env) == "require" {
		t.Fatalf("FUSE is required (%s=require) but does not work: %v", Env, err)
	}
	t.Skipf("FUSE does not work here (set %s=require to fail instead): %v", Env, err)
}
