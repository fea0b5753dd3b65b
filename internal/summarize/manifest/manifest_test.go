package manifest

import (
	"slices"
	"testing"
)

func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       []string
		known      bool
	}{
		{".tool-versions", "elixir 1.16.3-otp-26\nerlang 26.2.5\n", []string{"elixir 1.16.3-otp-26", "erlang 26.2.5"}, true},
		{"web/.nvmrc", "v20.11.1\n", []string{"node 20.11.1"}, true},
		{"go.mod", "module x\n\ngo 1.22.2\n", []string{"go 1.22.2"}, true},
		{"App.csproj", `<TargetFramework>net8.0</TargetFramework>`, []string{"TargetFramework net8.0"}, true},
		{"README.md", "go 1.22", nil, false},
	} {
		got, known := Versions(tc.file, tc.text)
		if !slices.Equal(got, tc.want) || known != tc.known {
			t.Errorf("Versions(%q) = %q, %v; want %q, %v", tc.file, got, known, tc.want, tc.known)
		}
	}
}
