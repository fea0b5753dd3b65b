package prose

import (
	"fmt"
	"testing"
)

func TestSettings(t *testing.T) {
	for in, want := range map[string]string{
		"The project still declares requires-python >=3.9.":         "map[requires-python:3.9]",
		"Let's raise requires-python to 3.12 so we can use tomllib": "map[requires-python:3.12]",
		"required_version is now \"~> 1.8.3\" instead of 1.7.5":     "map[required_version:1.8.3]",
		"bump max_conns from 20 to 50":                              "map[max_conns:50]",
		"pool.size is 8 and retry-limit = 3":                        "map[pool.size:8 retry-limit:3]",
		"We edited config/app.yaml and main.go 2 times":             "map[]",
		"The API listens on port 8081":                              "map[]",
	} {
		if got := fmt.Sprint(Settings(in)); got != want {
			t.Errorf("Settings(%q) = %s, want %s", in, got, want)
		}
	}
}
