package change

import (
	"fmt"
	"testing"
)

func TestFlags(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"With `wasm-opt = [\"-Oz\"]`, the wasm is 182,416 bytes.", "map[-O:-Oz]"},
		{"wasm-opt runs with `-O3 --enable-simd`", "map[-O:-O3]"},
		{"`make -j8` builds it", "map[-j:-j8]"},
		{"-O0 for debug builds, -O2 for release", "map[]"},
		{"`rm -rf build` and `docker run -it`", "map[]"},
		{"a well-known 3-way merge", "map[]"},
	} {
		if got := fmt.Sprint(Flags(tc.in)); got != tc.want {
			t.Errorf("Flags(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if !OtherFlag(Flags("wasm-opt = [\"-Oz\"]"), Flags("runs with -O3")) || OtherFlag(Flags("-O3"), Flags("-O3 and -j4")) {
		t.Error("OtherFlag")
	}
}
