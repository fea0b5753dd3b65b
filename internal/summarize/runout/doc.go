// Package runout reads what a command printed: test counts and failing
// tests, the line that says what went wrong.
package runout
