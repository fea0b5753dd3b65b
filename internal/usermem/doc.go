// Package usermem is the memory that follows the person: a cairn memory
// of its own, outside every project ($CAIRN_USER_DIR, else
// $XDG_DATA_HOME/cairn, else ~/.local/share/cairn), for the preferences
// and habits that hold in every project. It finds, checks and creates
// that memory, promotes a project's items to it with their provenance,
// and gives the context pack the user items no project item contradicts.
package usermem
