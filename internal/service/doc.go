// Package service writes and removes the user service that runs a
// memory's daemon at login (cairn daemon install|uninstall): a systemd
// user unit on Linux, a launchd agent on macOS. It only writes files and
// says which commands load them; the caller runs those commands when the
// tool is there, or prints them.
package service
