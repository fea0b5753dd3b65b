package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
)

// httpServer is the part that serves the API. The daemon binds its
// listener before any part runs, so that an address in use fails the
// start with a clear error; a run after a failure binds the same address
// again, so that .state/addr stays true.
type httpServer struct {
	handler http.Handler
	l       net.Listener // bound at start; the first run serves it
	addr    string       // l's address, for the runs after a failure
}

// shutdownTimeout bounds how long requests in flight may take to finish
// when the daemon stops.
const shutdownTimeout = 5 * time.Second

func (h *httpServer) Serve(ctx context.Context) error {
	// The supervisor runs one Serve of a part at a time, so h.l needs no
	// lock.
	l := h.l
	h.l = nil
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", h.addr); err != nil {
			return fmt.Errorf("http: listen again on %s: %w", h.addr, err)
		}
	}
	// A new server each run: one that has failed or shut down is not
	// meant to serve again.
	srv := &http.Server{
		Handler:           h.handler,
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }() // Serve closes l when it returns
	select {
	case err := <-served:
		return fmt.Errorf("http: serve on %s: %w", h.addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("http: shut down on %s: %w", h.addr, err)
	}
	return nil
}

// monitor is the part that runs the work tree's monitor. Each
// run starts a new Monitor: events were lost while the last one was down,
// and a new monitor's id makes checkpoints holding the old one's tokens
// scan everything.
type monitor struct {
	mem *memory.Memory
}

func (m monitor) Serve(ctx context.Context) error {
	if err := m.mem.NewMonitor().Serve(ctx); err != nil {
		return err
	}
	if ctx.Err() == nil {
		// Its event stream closed under it: not done, broken.
		return errors.New("monitor: stopped while the daemon runs")
	}
	return nil
}
