package prose

import (
	"fmt"
	"testing"
)

func TestVersions(t *testing.T) {
	for in, want := range map[string]string{
		"The build uses the Gradle toolchain with Java 17, and pattern matching is fine there.": "map[java:17]",
		"The editor is Unity 2022.3.21f1.":                                   "map[unity:2022.3.21f1]",
		"The alias points at the index products_v3, schema-v2 stays.":        "map[products:v3 schema:v2]",
		"asdf is on elixir 1.17.2 / otp 27 here since friday":                "map[elixir:1.17.2]",
		"Now that we're on SDK 52 the camera API changed":                    "map[sdk:52]",
		"I bumped the base image to node:20-alpine":                          "map[node:20]",
		"the runtime image is eclipse-temurin:21-jre":                        "map[eclipse-temurin:21]",
		"The API listens on port 8080 and retries every 5 seconds":           "map[]",
		"Session 3 went fine":                                                "map[]",
		"0.2.0 is the current release on Maven Central.":                     "map[own release:0.2.0]",
		"Pushed, 1.0.0 is on Central.":                                       "map[own release:1.0.0]",
		"Openapi-generator 7.10.0 is out with the 3.1 type-array work.":      "map[openapi-generator:7.10.0]",
		"WAN stays as it is: PPPoE on wan.6, the ISP's VLAN 6.":              "map[]",
		"The heater is on relay Channel 3, the fan on GPIO 22":               "map[]",
		"The app is on Rack 3.0.8 and Django Channels 4.1":                   "map[channels:4.1 rack:3.0.8]",
		"bump channels to 4.1.0":                                             "map[channels:4.1.0]",
		"The grid is TanStack Table v8":                                      "map[table:8]",
		"The client API is on localhost:8008, Postgres on db:5432":           "map[]",
		"deployment target is iOS 16, simulator runs iOS 17.4":               "map[ios:17.4]",
		"bump matplotlib to the 3.9 series — 3.9.2":                          "map[matplotlib:3.9.2]",
		"matplotlib is pinned at 3.9.2 now":                                  "map[matplotlib:3.9.2]",
		"the class is northmoor-thesis (version 2.3 of their template)":      "map[template:2.3]",
		"Move the cocotb runs over to Verilator — 5.024 is what's installed": "map[verilator:5.024]",
		"Housekeeping. Move us to the Keycloak 25 line — 25.0.6.":            "map[keycloak:25.0.6]",
		"Take Debezium up to 2.7.3, we need the TOAST fix":                   "map[debezium:2.7.3]",
		"so raise the minimum VS Code to 1.90 while you're in package.json":  "map[code:1.90]",
		"The extension has to support VS Code ^1.85.0 (engines field)":       "map[code:1.85.0]",
	} {
		if got := fmt.Sprint(Versions(in)); got != want {
			t.Errorf("Versions(%q) = %s, want %s", in, got, want)
		}
	}
}
