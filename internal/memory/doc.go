// Package memory is cairn's domain: memory items (Markdown files with YAML
// front matter), their kinds and layers, sessions, and the facade the
// command line, the daemon and the FUSE view use to open a project's
// memory and read and change it.
//
// The packages below it each own one thing and speak in their own small
// types: gitstore paths, bytes and commits; indexer documents and queries;
// watcher jobs; transcript events. memory translates between them.
package memory
