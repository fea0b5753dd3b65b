package runout

import "testing"

func TestErrorLine(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"Exit code 1\n# pkg\n./main.go:12:2: undefined: foo\nFAIL\tpkg [build failed]", "./main.go:12:2: undefined: foo"},
		{"Exit code 1\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    x()\nNameError: name 'x' is not defined\n", "NameError: name 'x' is not defined"},
		{"Exit code 2\nnpm ERR! code ELIFECYCLE\nError: Cannot find module 'left-pad'\n", "Error: Cannot find module 'left-pad'"},
		{"Exit code 1\n--- FAIL: TestX (0.00s)\n    x_test.go:9: got 2, want 3\nFAIL", "x_test.go:9: got 2, want 3"},
		{"Exit code 1\n--- FAIL: TestX (0.00s)\nFAIL", "--- FAIL: TestX (0.00s)"},
		{"Exit code 1", ""},
		{"Exit code 1\ncom.parcelo.sdk.ErrorMappingTest > case03[jvmTest] PASSED\ncom.parcelo.sdk.RetryPolicyTest > backoffDoublesUntilCap[jvmTest] FAILED\n    java.lang.AssertionError: expected:<800> but was:<813>\n",
			"com.parcelo.sdk.RetryPolicyTest > backoffDoublesUntilCap[jvmTest] FAILED"},
	} {
		if got := ErrorLine(tc.out); got != tc.want {
			t.Errorf("ErrorLine(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestTestOutcome(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"ok  \ta/b\t0.1s\nok  \ta/c\t0.2s", "2 packages ok"},
		{"--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/sub (0.00s)\nFAIL\ta/b\t0.1s\nok  \ta/c\t0.1s", "1 package ok, 1 failed; failing: TestA"},
		{"===== 1 failed, 41 passed in 2.31s =====\nFAILED tests/test_api.py::test_login - AssertionError", "1 failed, 41 passed; failing: tests/test_api.py::test_login"},
		{"Tests:       2 failed, 98 passed, 100 total", "2 failed, 98 passed, 100 total"},
		{"test result: ok. 12 passed; 0 failed; 0 ignored", "12 passed, 0 failed"},
		{"nothing to see", ""},
	} {
		if got := TestOutcome(tc.out); got != tc.want {
			t.Errorf("TestOutcome(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}
