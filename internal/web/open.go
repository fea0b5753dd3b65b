package web

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// Launch asks the daemon c for a login link and opens it in the browser
// (unless print); it returns the link when it did not open it, for the
// caller to print. Why a browser could not open goes to warn, unless
// there is simply none (ErrNoBrowser).
func Launch(ctx context.Context, c *client.Client, print bool, goos string, getenv func(string) string, warn func(string)) (string, error) {
	l, err := c.UILogin(ctx)
	if err != nil {
		return "", fmt.Errorf("ui: ask the daemon for a login: %w", err)
	}
	link := c.BaseURL + l.Path
	if print {
		return link, nil
	}
	if err := Open(ctx, link, goos, getenv); err != nil {
		if !errors.Is(err, ErrNoBrowser) {
			warn(err.Error())
		}
		return link, nil
	}
	return "", nil
}

// ErrNoBrowser means there is no browser to open a page in: no display,
// or no opener command.
var ErrNoBrowser = errors.New("no browser to open")

// Open opens url in the user's browser: with open on macOS, xdg-open
// elsewhere when a display is set (xdg-open without one falls back to a
// browser in the terminal, which would take it over).
func Open(ctx context.Context, url, goos string, getenv func(string) string) error {
	name := "xdg-open"
	if goos == "darwin" {
		name = "open"
	} else if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return ErrNoBrowser
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoBrowser, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, path, url).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, out)
	}
	return nil
}
