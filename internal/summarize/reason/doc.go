// Package reason splits what a statement decides from why ("we keep
// durations in integer minutes — floats drifted by a cent"): the reason
// cued inside the sentence, said before what it justifies, or given by
// the sentence after it; and cuts a long reason at a clause so that a
// short view of a body shows its first part. No I/O.
package reason
