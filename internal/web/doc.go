// Package web is cairn's viewer: the pages `cairn ui` opens in a browser,
// served by the daemon on its loopback listener under /ui/. It reads the
// memory through internal/memory (checkpoints, diffs, items, sessions, the
// catalogue), searches and packs through the daemon's own API (the daemon
// holds the search index), checks through internal/doctor, and works the
// capture queue through the same watcher.Queue calls as `cairn queue`.
//
// Auth is its own, since a browser cannot hold the bearer token: `cairn ui`
// asks the daemon (with the token) for a one-time login code, and
// GET /ui/login?code=... trades it for a session cookie (HttpOnly,
// SameSite=Strict, Path=/ui) and redirects to a URL without the code.
// Every POST needs the session's CSRF token from the page's form and a
// same-origin request (Sec-Fetch-Site or Origin). Pages are
// html/template, with a stylesheet and a small script embedded in the
// binary; reading needs no JavaScript.
package web
