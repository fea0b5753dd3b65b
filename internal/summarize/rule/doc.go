// Package rule tells whether a user's sentence states a standing rule
// for the agent ("from now on every new env var goes into
// .env.example", "please never add a pip dependency without asking"),
// and how firmly, rather than a task, a report of what is done, a habit
// of a thing or who holds something. No I/O.
package rule
