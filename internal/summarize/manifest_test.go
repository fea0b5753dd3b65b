package summarize

import (
	"fmt"
	"testing"
)

func TestManifestVersions(t *testing.T) {
	for _, c := range []struct {
		t    Turn
		want string
	}{
		{Turn{Role: Tool, Tool: "Bash", Input: "cat .tool-versions && grep -n port config/dev.exs", Text: "elixir 1.16.3-otp-26\nerlang 26.2.5\n1:import Config\n7:  port: 5433,"},
			"[`.tool-versions`: elixir 1.16.3-otp-26, erlang 26.2.5]"},
		{Turn{Role: Tool, Tool: "Read", Input: "/home/me/app/.tool-versions", Text: "1\telixir 1.17.2-otp-27\n2\terlang 27.0.1\n"},
			"[`/home/me/app/.tool-versions`: elixir 1.17.2-otp-27, erlang 27.0.1]"},
		{Turn{Role: Tool, Tool: "Read", Input: "src/Api/Api.csproj", Text: "     1→<Project>\n     2→<TargetFramework>net8.0</TargetFramework>\n     3→<PackageReference Include=\"Microsoft.EntityFrameworkCore\" Version=\"8.0.4\" />"},
			"[`src/Api/Api.csproj`: TargetFramework net8.0, Microsoft.EntityFrameworkCore 8.0.4]"},
		{Turn{Role: Tool, Tool: "Read", Input: "package.json", Text: "{\n  \"dependencies\": {\n    \"expo\": \"~51.0.28\",\n    \"react-native\": \"0.74.5\",\n    \"lodash\": \"4.17.21\"\n  }\n}"},
			"[`package.json`: expo 51.0.28, react-native 0.74.5]"},
		{Turn{Role: Tool, Tool: "Read", Input: "group_vars/all.yml", Text: "node_exporter_version: \"1.7.0\"\nprometheus_port: 9090\n"},
			"[`group_vars/all.yml`: node_exporter_version 1.7.0]"},
		{Turn{Role: Tool, Tool: "Read", Input: "README.md", Text: "go 1.22"}, "[]"},
		{Turn{Role: Tool, Tool: "Bash", Input: "cat .nvmrc", Text: "cat: .nvmrc: No such file or directory", IsError: true}, "[]"},
	} {
		if got := fmt.Sprint(manifestVersions(c.t)); got != c.want {
			t.Errorf("manifestVersions(%s %q) = %s, want %s", c.t.Tool, c.t.Input, got, c.want)
		}
	}
}
