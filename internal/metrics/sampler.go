package metrics

import (
	"cmp"
	"context"
	"time"
)

// Sampler records the daemon's gauges: a first sample a little after it
// starts, then one every Every. It is a part of the daemon (its Serve
// runs until ctx is done). A sample that fails is not recorded, and does
// not stop the sampler.
type Sampler struct {
	Log *Log
	// First is the wait before the first sample (the daemon's start is
	// busy), Every between samples; zero means 30 seconds and 5 minutes.
	First, Every time.Duration
	// Sample measures; it should take well under a second.
	Sample func(ctx context.Context) (Event, error)
}

// Serve samples until ctx is done, and returns nil then.
func (s Sampler) Serve(ctx context.Context) error {
	t := time.NewTimer(cmp.Or(s.First, 30*time.Second))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if ev, err := s.Sample(ctx); err == nil {
			ev.Kind = KindGauge
			s.Log.Record(ctx, ev)
		} else if ctx.Err() == nil {
			s.Log.debug(ctx, "metrics: gauges not sampled", err)
		}
		t.Reset(cmp.Or(s.Every, 5*time.Minute))
	}
}
