package safefile

import "os"

// Private makes the folder dir its owner's alone (no access for group or
// others) when it is not, and reports whether it changed it: a memory
// cloned with git is 0755, and .git/config below it may hold a remote's
// token. A folder's mode guards everything under it. One it cannot
// change is left as it is.
func Private(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return false
	}
	return os.Chmod(dir, fi.Mode().Perm()&0o700|0o700) == nil
}
