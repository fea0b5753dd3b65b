package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/cairn-mem/cairn/internal/service"
)

// ServiceText says what cairn daemon install or uninstall did.
func ServiceText(w io.Writer, r service.Result) error {
	what := map[[2]bool]string{{true, true}: "wrote", {true, false}: "unchanged:", {false, true}: "removed", {false, false}: "no service to remove:"}[[2]bool{r.Install, r.Changed}]
	fmt.Fprintf(w, "daemon: %s %s\n", what, r.Path)
	for _, c := range r.Ran {
		fmt.Fprintf(w, "daemon: ran %s\n", c)
	}
	if len(r.Left) > 0 {
		fmt.Fprintf(w, "daemon: to finish, run:\n  %s\n", strings.Join(r.Left, "\n  "))
	}
	return nil
}
