//go:build !linux

package loose

import (
	"errors"
	"os"
)

// StartWriteback has no sync_file_range to call outside Linux: the
// Writer then syncs every object and folder at Flush.
func StartWriteback(*os.File) error { return errors.ErrUnsupported }
