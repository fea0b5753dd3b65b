// Package cause reads how a message tells a root cause: whether a
// sentence states one, announces one ("Found it.") or names the kind of
// fault the sentences around it explain ("That's coordinated omission."),
// and where such an explanation starts and ends among a message's
// sentences. The summarizer files what it finds.
package cause
