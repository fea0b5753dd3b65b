// Package quantity reads the quantities a sentence gives (a number and
// what it counts) and tells when two statements count one thing
// differently.
package quantity
