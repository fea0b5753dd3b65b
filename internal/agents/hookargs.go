package agents

import (
	"fmt"
	"strings"
)

// ParseHookArgs reads cairn hook's arguments, which cobra leaves alone
// (an agent takes exit code 2 for "block", so a mistyped flag must not
// become a usage error): -C/--dir, --agent and the EVENT. A flag it does
// not know is said through warn and ignored.
func ParseHookArgs(args []string, warn func(string)) (chdir, agent, event string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == "-C" || a == "--dir") && i+1 < len(args):
			chdir = args[i+1]
			i++
		case strings.HasPrefix(a, "--dir="):
			chdir = strings.TrimPrefix(a, "--dir=")
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			chdir = a[2:]
		case a == "--agent" && i+1 < len(args):
			agent, i = args[i+1], i+1
		case strings.HasPrefix(a, "--agent="):
			agent = a[len("--agent="):]
		case strings.HasPrefix(a, "-"):
			warn(fmt.Sprintf("hook: ignoring unknown flag %s", a))
		case event == "":
			event = a
		}
	}
	return chdir, agent, event
}
