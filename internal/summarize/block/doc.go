// Package block reads the layout of an agent's message: its paragraphs
// of prose (code blocks left out), the items of its lists, and whether two
// sentences stand in one paragraph. A report gives each matter a
// paragraph, and a reason follows its choice in the same one. No I/O.
package block
