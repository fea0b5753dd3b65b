// Package gone reads what a shell command took away from the project:
// files deleted or moved, folders removed for good (not a build's
// output), code names a move renamed; and whether a text names one of
// them. What an older session said of such a thing no longer holds. No
// I/O.
package gone
