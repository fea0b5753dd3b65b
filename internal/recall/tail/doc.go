// Package tail writes what a core item's entry in a context pack says
// after its text, "(decision, 2026-03-04, id 01JDXK3V)", and how many
// tokens its shortest entry takes, without building strings: near a full
// pack thousands of items are measured and few are shown.
package tail
