// Package paths reads where prose says a thing lives: the absolute paths
// and URLs a statement names, and whether a newer statement names the
// same thing under another parent, host or version (the retirer's test of
// a thing moved).
package paths
