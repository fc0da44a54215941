//go:build ours

package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"k8s.io/client-go/rest"

	watchserver "example.com/walkthrough/07-watchserver"
)

// onOurServer says the embedded API server is chapter 07's.
const onOurServer = true

// embedded is the world on chapter 07's API server, started in this
// process on an etcd of its own (make demo SERVER=ours): the controller's
// every request crosses a real wire to code the workshop wrote, and no
// fake clientset is linked in.
func embedded(ctx context.Context) (*world, error) {
	dir, err := os.MkdirTemp("", "rollout-demo-etcd-")
	if err != nil {
		return nil, err
	}
	st := &serverTrace{}
	srv, err := watchserver.StartObserved(dir, st.observer())
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("chapter 07's API server: %w", err)
	}
	st.srv = srv
	stop := func() error { return errors.Join(srv.Close(), os.RemoveAll(dir)) }
	w, err := dial(ctx, &rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("chapter 07's API server at %s: %w", srv.URL, err), stop())
	}
	w.ns, w.close = "demo", stop
	w.traceServer, w.serverState = st.start, st.state
	w.where = fmt.Sprintf("chapter 07's API server on an embedded etcd, in this process at %s (started in %s)", srv.URL, srv.Started.Round(1e6))
	return w, nil
}
