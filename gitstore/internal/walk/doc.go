// Package walk lists the files of gitstore's work tree: regular files
// and symbolic links with their git mode and stat data, read with raw
// system calls from a few workers (Walk). Which of them a checkpoint
// commits (ignore rules, links, path checks) is gitstore's; walk only
// leaves out temporary files of safefile and the top-level folders it is
// told to skip.
package walk
