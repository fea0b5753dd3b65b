// Package handoff lets a process that needs a folder's single-holder
// resource (Bleve's index: one process at a time) ask the process that
// holds it idle to let it go: the asker drops a file named release-<pid>
// into the folder, the holder watches the folder and closes the resource
// unless it is using it.
package handoff
