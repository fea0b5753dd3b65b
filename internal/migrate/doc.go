// Package migrate upgrades the files of older cairn versions as they are
// read: a registry of steps, each taking one kind of file (an item's
// front matter, a session.yaml) from one schema to the next.
//
// A file says its schema in a "schema:" key; one without it is schema 0.
// internal/model runs Up on every file it parses, so the rest of cairn
// only ever sees the latest schema, and cairn migrate writes the upgraded
// files back in one checkpoint. A file whose schema is newer than the
// latest this cairn knows is left as it is: Up returns a *NewerError,
// and the caller reports the file and goes on without it.
//
// The package works on yaml.v3 nodes, so that a step keeps the comments
// and the keys it does not know. It does no I/O.
package migrate
