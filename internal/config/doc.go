// Package config owns cairn.yaml, the memory's shared configuration,
// committed in .cairn/ and synced with it: its keys and defaults, and the
// one parser, which checks every key's type and range (Check, Parse) so
// that a bad key keeps its default and names its line, never breaking a
// write. docs/formats.md describes the file; docs/sync.md which keys a
// remote may never set.
package config
