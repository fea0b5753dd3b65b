// Package weigh reads a choice between options named in so many words:
// the options a question or a list puts ("Fabio or Traefik?", "Options:
// purge everything after each update, or version the tile URLs."), and
// those of them an answer turns down, with what it says against each. No
// I/O.
package weigh
