//go:build !unix

package watcher

import "os"

// fileID returns zeros where the system gives no inode numbers: a
// replacement is then noticed only when the file shrinks or its bytes
// before the cursor change.
func fileID(fi os.FileInfo) (dev, ino uint64) { return 0, 0 }

// openNoFollow opens a file for reading. Callers check with Lstat first;
// this system has no O_NOFOLLOW.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
