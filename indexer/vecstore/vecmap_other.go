//go:build !unix

package vecstore

import (
	"io"
	"os"
)

// mapFile reads f; unmap is always nil.
func mapFile(f *os.File) (b []byte, unmap func() error, err error) {
	b, err = io.ReadAll(f)
	return b, nil, err
}
