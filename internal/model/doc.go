// Package model is cairn's vocabulary: memory items and their kinds,
// layers, ids and slugs; sessions and their session.yaml; the paths they
// live at. It holds the one codec of an item's Markdown with YAML front
// matter (Parse, Item.Marshal, FrontKeys, WithKeys) and the one codec of
// session.yaml (ParseSession, Session.Marshal). See docs/formats.md and
// docs/capture.md for the formats.
//
// It is pure: no I/O, no clock, no imports of the rest of cairn, so any
// package may use it.
package model
