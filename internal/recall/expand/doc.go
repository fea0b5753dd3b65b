// Package expand reads what a search query says beyond its words: the
// times it names ("in May", "last summer", "at Christmas", "in 2024",
// "three weeks ago"), as windows of dates that a search can favour. The
// reference date is the caller's (cairn's search takes the newest
// session's, so that "last summer" means the summer before the memory's
// latest talk, not before today). No I/O, no model.
package expand
