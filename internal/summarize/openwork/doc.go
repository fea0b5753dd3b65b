// Package openwork reads work left said in a sentence: the items of a
// labelled list of it ("Still open: A; B; and C."), an item without its
// label, and a sentence that points back to the item before it. No I/O.
package openwork
