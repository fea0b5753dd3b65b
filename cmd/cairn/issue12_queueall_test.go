package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 12, item 15: doctor's advice works without ids (queue retry --all,
// queue drop --all).
func TestQueueRetryDropAll(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	dropFailing(t, p)
	cairn(t, p, "", "queue", "run")
	if n := len(failedJobs(t, p)); n != 2 {
		t.Fatalf("%d failed jobs, want 2", n)
	}
	if out := ok(t, p, "queue", "retry", "--all"); !strings.Contains(out, "2 job(s) back in the queue") {
		t.Errorf("retry --all: %s", out)
	}
	cairn(t, p, "", "queue", "run")
	if out := ok(t, p, "queue", "drop", "--all"); !strings.Contains(out, "2 job(s) dropped") {
		t.Errorf("drop --all: %s", out)
	}
	if out := ok(t, p, "queue", "status"); !strings.Contains(out, "failed 0, dropped 2") {
		t.Errorf("status: %s", out)
	}
	fails(t, p, 2, "job ids or --all", "queue", "drop")
	fails(t, p, 2, "job ids or --all", "queue", "drop", "--all", "01M8S6BVAB30BS0PWF2BB69W9W")
	checkGit(t, p)
}

// Issue 12, item 15: every `cairn queue ...` the documentation names is a
// command line that works.
func TestDocsQueueCommandsWork(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	var docs []string
	for _, pat := range []string{"../../README.md", "../../docs/*.md"} {
		m, _ := filepath.Glob(pat)
		docs = append(docs, m...)
	}
	cmdRE := regexp.MustCompile("`(cairn queue[^`]*)`")
	seen := map[string]bool{}
	for _, name := range docs {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cmdRE.FindAllStringSubmatch(string(data), -1) {
			line := m[1]
			if strings.ContainsAny(line, "[|") || strings.Contains(line, "ID") || seen[line] {
				continue // a synopsis, or a placeholder for ids
			}
			seen[line] = true
			r := cairn(t, p, "", strings.Fields(line)[1:]...)
			if r.code == exitUsage {
				t.Errorf("%s names %q, which fails: %s", filepath.Base(name), line, r.stderr)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("no cairn queue command found in the documentation")
	}
}
