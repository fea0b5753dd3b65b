package gitgc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// BenchmarkRepack repacks a memory shaped like a long-lived project's
// (gitstoretest.LayoutFor(GITGC_FILES, default 2,000 files) committed by
// gitstore, then GITGC_CHECKPOINTS checkpoints, default 300, each
// changing three session files), every object loose as gitstore writes
// them, and runs git gc on an identical copy in the same iteration.
// Metrics: git-gc-ms, ratio (Repack's time / git gc's), and the object
// store on disk before, after Repack and after git gc.
//
//	go test ./gitstore/gitgc -run '^$' -bench Repack -benchtime 3x
func BenchmarkRepack(b *testing.B) {
	files, checkpoints := envInt("GITGC_FILES", 2000), envInt("GITGC_CHECKPOINTS", 300)
	ctx := context.Background()
	tmpl := filepath.Join(b.TempDir(), ".cairn")
	if err := gitstoretest.Generate(tmpl, gitstoretest.LayoutFor(files), 1); err != nil {
		b.Fatal(err)
	}
	s, _, err := gitstore.Init(ctx, tmpl, map[string][]byte{".gitignore": []byte(".state/\n")}, "init", gitstore.Options{Identity: gitstore.Identity{Name: "B", Email: "b@example.com"}})
	if err != nil {
		b.Fatal(err)
	}
	unlock, _ := s.Lock(ctx, time.Second)
	// Init committed the generated tree.
	for i := range checkpoints {
		for j := range 3 {
			p := fmt.Sprintf("sessions/s%d/transcript.md", (i+j)%40)
			old, _ := s.ReadFile(p)
			s.WriteFile(p, append(old, fmt.Sprintf("turn %d of checkpoint %d: the agent ran the tests\n", j, i)...))
		}
		if _, err := s.Checkpoint(ctx, gitstore.CheckpointOptions{Subject: fmt.Sprint("checkpoint ", i)}); err != nil {
			b.Fatal(err)
		}
	}
	unlock()
	s.Close()
	copyRepo := func() string {
		dst := filepath.Join(b.TempDir(), ".cairn")
		if out, err := exec.Command("cp", "-a", tmpl, dst).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v\n%s", err, out)
		}
		return dst
	}
	var ours, theirs time.Duration
	var before, after, gitAfter int64
	var objects int
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		dir := copyRepo()
		st, err := gitstore.Open(ctx, dir, gitstore.Options{})
		if err != nil {
			b.Fatal(err)
		}
		unlock, _ := st.Lock(ctx, time.Second)
		b.StartTimer()
		t0 := time.Now()
		res, err := Repack(ctx, st, Options{})
		ours += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		unlock()
		st.Close()
		before, after, objects = res.Before.Disk, res.After.Disk, res.Packed

		gdir := copyRepo()
		t0 = time.Now()
		if _, err := gitstoretest.Git(ctx, gdir, "gc", "--quiet"); err != nil {
			b.Fatal(err)
		}
		theirs += time.Since(t0)
		gitAfter = diskOf(b, filepath.Join(gdir, ".git", "objects"))
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(objects), "objects")
	b.ReportMetric(float64(theirs.Milliseconds())/float64(b.N), "git-gc-ms")
	b.ReportMetric(float64(ours)/float64(theirs), "ratio")
	b.ReportMetric(float64(before)/1024, "KiB-before")
	b.ReportMetric(float64(after)/1024, "KiB-after")
	b.ReportMetric(float64(gitAfter)/1024, "KiB-after-git-gc")
}

func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err == nil && n > 0 {
		return n
	}
	return def
}

// diskOf is the disk the files under dir take.
func diskOf(b *testing.B, dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += disk(fi)
		}
		return nil
	})
	return n
}
