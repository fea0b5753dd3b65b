//go:build !linux

package safefile

import "errors"

// openBeneath is openat2's one call where there is one; elsewhere the
// walk does it.
func openBeneath(int, string, int) (int, error) { return -1, errors.ErrUnsupported }
