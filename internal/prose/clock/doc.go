// Package clock reads the times of day a statement gives, each with what
// happens then ("the cron job prints it at 19:00 now"), as prose claims
// that the retirer compares: a time of day is a setting, and a newer
// statement giving the same event another time retires the older one.
package clock
