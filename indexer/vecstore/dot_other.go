//go:build !amd64

package vecstore

// dotsInt8 sets out[r] to the inner product of q and the r-th row of
// rows (len(out) rows of len(q) codes).
func dotsInt8(q []int16, rows []int8, out []int32) { dotsInt8Go(q, rows, out) }
