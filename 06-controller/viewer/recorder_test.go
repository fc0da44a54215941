package viewer

import (
	"bytes"
	"strings"
	"testing"
)

func TestRecorderKeepsNewest(t *testing.T) {
	r := NewRecorder(nil)
	r.Keep(3)
	for _, m := range []string{"a", "b", "c", "d", "e"} {
		r.Trace("worker", "", m)
	}
	seqs := func(steps []Step) (out []int) {
		for _, s := range steps {
			out = append(out, s.Seq)
		}
		return out
	}
	if got, _, _ := r.Steps(0); len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("Steps(0) after 5 steps keeping 3 = %v, want 3 4 5", seqs(got))
	}
	if got, _, _ := r.Steps(4); len(got) != 1 || got[0].Seq != 5 {
		t.Fatalf("Steps(4) = %v, want 5", seqs(got))
	}
}

func TestRecorderRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	r := NewRecorder(&buf)
	r.SetState(func() State { return State{Queue: Queue{Queue: []string{"demo/web"}}} })
	r.Section("Create")
	r.Trace("queue", "demo/web", "add")
	r.Trace("api", "demo/web", "create deployment web")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	replay, err := Replay(&buf)
	if err != nil {
		t.Fatal(err)
	}
	steps, closed, _ := replay.Steps(0)
	if !closed || len(steps) != 2 || steps[1].Title != "Create" || steps[1].State.API[0] != "create deployment web" ||
		steps[0].State.Queue.Queue[0] != "demo/web" {
		t.Fatalf("replayed %+v (closed %v)", steps, closed)
	}
}

func TestReplayRejectsBadTraces(t *testing.T) {
	for name, in := range map[string]string{
		"empty":    "",
		"not json": "hello\n",
		"gap":      `{"seq":1}` + "\n" + `{"seq":3}` + "\n",
	} {
		if _, err := Replay(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "trace") {
			t.Errorf("%s: Replay error = %v, want one that names the trace", name, err)
		}
	}
}

func TestServeOnlyOnLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:80", "nonsense"} {
		if s, err := Serve(addr, NewRecorder(nil), ""); err == nil {
			s.Close()
			t.Errorf("Serve(%q) served; it must refuse anything but loopback", addr)
		}
	}
}
