package service

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestFiles(t *testing.T) {
	for _, tc := range []struct {
		golden string
		s      Service
	}{
		{"systemd.service", Service{GOOS: "linux", Exe: "/home/dev/go/bin/cairn", Project: "/home/dev/src/shop", Home: "/home/dev"}},
		{"systemd-quoted.service", Service{GOOS: "linux", Exe: "/opt/my tools/cairn", Project: "/home/dev/src/100% shop", Home: "/home/dev"}},
		{"launchd.plist", Service{GOOS: "darwin", Exe: "/Users/dev/go/bin/cairn", Project: "/Users/dev/src/R&D shop", Home: "/Users/dev", UID: 501}},
	} {
		got, err := tc.s.File()
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(tc.golden, ".plist") {
			d := xml.NewDecoder(bytes.NewReader(got))
			for {
				if _, err := d.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Errorf("%s is not well-formed XML: %v", tc.golden, err)
					break
				}
			}
		}
		if string(got) != string(want) {
			t.Errorf("%s differs (go test ./internal/service -update):\n%s", tc.golden, got)
		}
	}
}

func TestPaths(t *testing.T) {
	s := Service{GOOS: "linux", Project: "/home/dev/src/shop", Home: "/home/dev"}
	if len(s.ID()) != len("cairn-")+12 || s.ID() == (Service{Project: "/home/dev/src/other"}).ID() {
		t.Errorf("ID %q: want cairn- and 12 hex digits, one per project", s.ID())
	}
	for _, tc := range []struct {
		s    Service
		want string
	}{
		{s, "/home/dev/.config/systemd/user/" + s.ID() + ".service"},
		{Service{GOOS: "linux", Project: s.Project, Home: "/home/dev", ConfigHome: "/xdg"}, "/xdg/systemd/user/" + s.ID() + ".service"},
		{Service{GOOS: "linux", Project: s.Project, Home: "/home/dev", ConfigHome: "relative"}, "/home/dev/.config/systemd/user/" + s.ID() + ".service"},
		{Service{GOOS: "darwin", Project: s.Project, Home: "/Users/dev"}, "/Users/dev/Library/LaunchAgents/dev.cairn." + s.ID()[6:] + ".plist"},
	} {
		if got, err := tc.s.Path(); err != nil || got != tc.want {
			t.Errorf("Path: %q, %v; want %q", got, err, tc.want)
		}
	}
	if _, err := (Service{GOOS: "windows"}).Path(); err == nil {
		t.Error("windows: no error")
	}
	if got := s.Commands(true); !slices.Equal(got[1], []string{"systemctl", "--user", "enable", "--now", s.ID() + ".service"}) {
		t.Errorf("install commands %q", got)
	}
	d := Service{GOOS: "darwin", Project: s.Project, Home: "/Users/dev", UID: 501}
	if got := d.Commands(false); !slices.Equal(got[0], []string{"launchctl", "bootout", "gui/501/" + d.label()}) {
		t.Errorf("uninstall commands %q", got)
	}
}

func TestInstallUninstall(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		t.Run(goos, func(t *testing.T) {
			home := t.TempDir()
			s := Service{GOOS: goos, Exe: "/usr/local/bin/cairn", Project: "/srv/shop", Home: home}
			path, changed, err := s.Install()
			if err != nil || !changed {
				t.Fatalf("Install: %v, changed %v", err, changed)
			}
			if !strings.HasPrefix(path, home) {
				t.Errorf("installed %s, outside the home %s", path, home)
			}
			data, _ := os.ReadFile(path)
			want, _ := s.File()
			if string(data) != string(want) {
				t.Errorf("%s holds %q", path, data)
			}
			if _, changed, err := s.Install(); err != nil || changed {
				t.Errorf("second Install: %v, changed %v", err, changed)
			}
			if p, removed, err := s.Uninstall(); err != nil || !removed || p != path {
				t.Errorf("Uninstall: %s %v %v", p, removed, err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("%s still there: %v", path, err)
			}
			if _, removed, err := s.Uninstall(); err != nil || removed {
				t.Errorf("second Uninstall: %v %v", removed, err)
			}
		})
	}
	s := Service{GOOS: "linux", Exe: "/bin/cairn", Project: "/srv/a\nb", Home: t.TempDir()}
	if _, _, err := s.Install(); err == nil {
		t.Error("a project path with a line break was installed")
	}
}
