// Package cue holds the families of phrasing by which the extractive
// summarizer sorts statements: a root cause explains a failure, a
// decision commits to a course (and may give a reason or name what it
// was chosen over), a preference is a standing instruction of the user,
// an environment fact states where or how something runs, an open item
// names work left. Each kind is recognised by the families of phrasing
// people use for it, not by one keyword; each pattern here is one such
// family, or a phrasing that rules one out. Package summarize decides
// what a sentence is from them; this package only says how it is worded,
// and, with the patterns together, whether it states work left.
package cue
