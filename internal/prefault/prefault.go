// Package prefault asks the kernel, once, for the pages of the Go heap a
// cairn process is about to touch, so that it takes them in one system
// call instead of one page fault each.
//
// Every cairn command starts by running the package inits of everything
// the binary links (bleve's among them): about 1.9 MB of fresh heap,
// each 4 KB page of it a page fault, and on this project's machines
// (virtualised, two cores) a fault costs 10-15 µs of system time, so
// that faults were a third of `cairn version`'s CPU time. The runtime
// maps its heap in 4 MB chunks and starts it at a random place in the
// first; from there to that chunk's end (2 MB on average), what the next
// allocations take, is populated here with MADV_POPULATE_WRITE (Linux
// 5.14), which fills in the page tables without a trap per page, and
// leaves the memory as the runtime expects it: zero where it was not
// written. The inits fill that part and more, so RSS hardly grows (0.4
// MB measured). Where the call is not known (an older kernel, another
// system) nothing happens: faults take the pages, as before.
//
// The work is done by the package's init, which runs before the inits of
// the packages that allocate much: it imports only syscall and unsafe,
// and Go initialises a package as soon as its imports are (in order of
// import path among those ready). cmd/cairn imports it for that alone.
package prefault
