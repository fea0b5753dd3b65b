// Package fsview shows a memory repository as a read-only file system:
// the memory as of the latest checkpoint, every checkpoint as an immutable
// tree, named checkpoints, the context pack, live search folders and
// views by kind and by tag.
//
//	CONTEXT.md                  the context pack an agent would receive now
//	core/ sessions/ archive/    the memory as of the latest checkpoint
//	checkpoints/<when>-<hash>-<subject>/   one folder per checkpoint
//	checkpoints/latest          a symbolic link to the newest
//	tags/<name>                 symbolic links to named checkpoints
//	search/<query>/NN-<title>.md   looking a query up runs the search
//	kinds/<kind>/  tagged/<tag>/   symbolic links into core/
//
// A View is the file system, an io/fs.FS over a memory's History (its Store) that reads
// only committed objects, so what it shows never depends on files being
// edited in the work tree. Mount serves a View through FUSE (go-fuse):
// history is immutable and cached by the kernel for as long as it likes;
// the live part is re-read when a new checkpoint lands, and the kernel is
// told exactly which names and files changed.
package fsview
