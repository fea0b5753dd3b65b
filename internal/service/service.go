package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// ExitRunning is the exit status of cairn daemon run when another daemon
// serves the memory already (an autostarted one): the service manager
// must not start it again and again.
const ExitRunning = 3

// Service is the daemon of one memory as a user service.
type Service struct {
	Exe     string // the cairn binary, absolute
	Project string // the project whose memory it serves, absolute
	GOOS    string // linux (systemd) or darwin (launchd)
	Home    string // the user's home folder
	// ConfigHome is $XDG_CONFIG_HOME, where systemd looks for user
	// units (Home/.config when empty or relative).
	ConfigHome string
	UID        int // the user's id, for launchctl's gui/UID domain
}

// ErrUnsupported says the platform has no service manager cairn knows.
var ErrUnsupported = errors.New("cairn daemon install knows systemd (Linux) and launchd (macOS) only")

// ID is the service's name: cairn- and the first 12 hex digits of the
// SHA-256 of the project's path, one per memory.
func (s Service) ID() string {
	h := sha256.Sum256([]byte(s.Project))
	return "cairn-" + hex.EncodeToString(h[:6])
}

// label is the launchd agent's label.
func (s Service) label() string { return "dev.cairn." + strings.TrimPrefix(s.ID(), "cairn-") }

// Path is where the service's file goes.
func (s Service) Path() (string, error) {
	switch s.GOOS {
	case "linux":
		dir := s.ConfigHome
		if dir == "" || !filepath.IsAbs(dir) {
			dir = filepath.Join(s.Home, ".config")
		}
		return filepath.Join(dir, "systemd", "user", s.ID()+".service"), nil
	case "darwin":
		return filepath.Join(s.Home, "Library", "LaunchAgents", s.label()+".plist"), nil
	}
	return "", fmt.Errorf("%w, not %s", ErrUnsupported, s.GOOS)
}

// File is the content of the service's file.
func (s Service) File() ([]byte, error) {
	switch s.GOOS {
	case "linux":
		return []byte(fmt.Sprintf(`# cairn's daemon for the memory of %[1]s, written by cairn daemon install
# (cairn daemon uninstall removes it). One daemon per memory: when a session
# start has run one already, this one exits with status %[4]d and is not
# restarted.
[Unit]
Description=cairn memory daemon for %[1]s

[Service]
ExecStart=%[2]s daemon run -C %[3]s
Restart=on-failure
RestartSec=5
RestartPreventExitStatus=%[4]d

[Install]
WantedBy=default.target
`, systemdEscape(s.Project), systemdQuote(s.Exe), systemdQuote(s.Project), ExitRunning)), nil
	case "darwin":
		log := filepath.Join(s.Project, ".cairn", ".state", "daemon.log")
		return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- cairn's daemon for one memory, written by cairn daemon install (cairn daemon uninstall removes it). -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>%[1]s</string>
	<key>ProgramArguments</key>
	<array>
		<string>%[3]s</string>
		<string>daemon</string>
		<string>run</string>
		<string>-C</string>
		<string>%[2]s</string>
	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>Crashed</key>
		<true/>
	</dict>
	<key>StandardOutPath</key>
	<string>%[4]s</string>
	<key>StandardErrorPath</key>
	<string>%[4]s</string>
</dict>
</plist>
`, xmlEscape(s.label()), xmlEscape(s.Project), xmlEscape(s.Exe), xmlEscape(log))), nil
	}
	return nil, fmt.Errorf("%w, not %s", ErrUnsupported, s.GOOS)
}

// Commands are the commands that load (install) or unload the service.
func (s Service) Commands(install bool) [][]string {
	switch s.GOOS {
	case "linux":
		if install {
			return [][]string{{"systemctl", "--user", "daemon-reload"}, {"systemctl", "--user", "enable", "--now", s.ID() + ".service"}}
		}
		return [][]string{{"systemctl", "--user", "disable", "--now", s.ID() + ".service"}}
	case "darwin":
		p, _ := s.Path()
		domain := fmt.Sprintf("gui/%d", s.UID)
		if install {
			return [][]string{{"launchctl", "bootstrap", domain, p}}
		}
		return [][]string{{"launchctl", "bootout", domain + "/" + s.label()}}
	}
	return nil
}

// Install writes the service's file; it reports whether the file
// changed. The caller loads it with Commands(true).
func (s Service) Install() (path string, changed bool, err error) {
	path, err = s.Path()
	if err != nil {
		return "", false, err
	}
	if strings.ContainsAny(s.Exe+s.Project, "\n\r") {
		return "", false, fmt.Errorf("install the service: %q or %q holds a line break", s.Exe, s.Project)
	}
	data, err := s.File()
	if err != nil {
		return "", false, err
	}
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return path, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", false, fmt.Errorf("install the service: %w", err)
	}
	if err := safefile.Write(path, data, 0o644); err != nil {
		return "", false, fmt.Errorf("install the service: %w", err)
	}
	return path, true, nil
}

// Uninstall removes the service's file; it reports whether there was
// one. The caller unloads it first with Commands(false).
func (s Service) Uninstall() (path string, removed bool, err error) {
	path, err = s.Path()
	if err != nil {
		return "", false, err
	}
	err = os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		return path, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("uninstall the service: %w", err)
	}
	return path, true, nil
}

// systemdQuote quotes a path for ExecStart: double quotes when it holds
// a space or a quote, with the specifier % doubled.
func systemdQuote(s string) string {
	s = systemdEscape(s)
	if !strings.ContainsAny(s, " \t\"'\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// systemdEscape doubles %, which systemd reads as a specifier.
func systemdEscape(s string) string { return strings.ReplaceAll(s, "%", "%%") }

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}

// Run runs cmds in turn, each found in the folders of path (a PATH).
// What it cannot run (not installed, or it failed) is left to the user:
// left has those command lines, and why, to print.
func Run(ctx context.Context, cmds [][]string, path string) (ran, left []string) {
	for i, c := range cmds {
		line := strings.Join(c, " ")
		exe := lookPath(c[0], path)
		if exe == "" {
			for _, c := range cmds[i:] {
				left = append(left, strings.Join(c, " "))
			}
			return ran, append(left, "("+c[0]+" is not installed here)")
		}
		out, err := exec.CommandContext(ctx, exe, c[1:]...).CombinedOutput()
		if err != nil {
			for _, c := range cmds[i:] {
				left = append(left, strings.Join(c, " "))
			}
			return ran, append(left, fmt.Sprintf("(%s failed: %v: %s)", line, err, strings.TrimSpace(string(out))))
		}
		ran = append(ran, line)
	}
	return ran, nil
}

// lookPath finds name in the folders of path, as exec.LookPath does in
// $PATH.
func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// Result is what Apply did.
type Result struct {
	Install bool     // installing, not uninstalling
	Path    string   // the service's file
	Changed bool     // it was written, or removed
	Ran     []string // the commands run
	Left    []string // the commands left to the user, and why
}

// Apply installs the service (writes its file, then loads it) or
// uninstalls it (unloads it, then removes the file). The commands are
// looked for in the folders of path (a PATH); those it cannot run are in
// Result.Left.
func Apply(ctx context.Context, s Service, install bool, path string) (Result, error) {
	r := Result{Install: install}
	var err error
	if install {
		if r.Path, r.Changed, err = s.Install(); err == nil {
			r.Ran, r.Left = Run(ctx, s.Commands(true), path)
		}
		return r, err
	}
	if r.Path, err = s.Path(); err != nil {
		return r, err
	}
	if _, err := os.Stat(r.Path); err == nil {
		r.Ran, r.Left = Run(ctx, s.Commands(false), path)
	}
	_, r.Changed, err = s.Uninstall()
	return r, err
}

// New is the service of the project's memory run by exe (its links
// resolved: the file that stays put), for this user (getenv reads HOME
// and XDG_CONFIG_HOME) on this platform.
func New(exe, project string, getenv func(string) string) (Service, error) {
	exe, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return Service{}, fmt.Errorf("find the cairn binary: %w", err)
	}
	return Service{Exe: exe, Project: project, GOOS: runtime.GOOS, Home: getenv("HOME"), ConfigHome: getenv("XDG_CONFIG_HOME"), UID: os.Getuid()}, nil
}
