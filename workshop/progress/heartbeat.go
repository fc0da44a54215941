package progress

import (
	"strings"
	"sync"
	"time"
)

// heartbeatEvery is how long a check stays silent before it says what it
// is doing; with the ticker's granularity, never 2 s: a learner who sees
// nothing for longer wonders whether it hangs.
const heartbeatEvery = 1500 * time.Millisecond

// heartbeat stands between a check and Options.Say: it passes every
// message on, and when nothing was said for heartbeatEvery it says that
// the part under way is still going ("still running the tests").
type heartbeat struct {
	say  func(string)
	mu   sync.Mutex
	part string // the part under way, short: "running the tests"
	// more, when set, adds to a beat what the part is busy with: the
	// checks still running (", on TestStress/x and 2 more").
	more func() string
	last time.Time // when something was last said
	done chan struct{}
}

func startHeartbeat(say func(string)) *heartbeat {
	h := &heartbeat{say: say, last: time.Now(), done: make(chan struct{})}
	go h.beat()
	return h
}

// Say passes what on: the start of a part ("building …", "running …",
// "finding …"), which a beat names from then on, in short.
func (h *heartbeat) Say(what string) {
	part, _, _ := strings.Cut(what, ",")
	part, _, _ = strings.Cut(part, ":")
	part, _, _ = strings.Cut(part, " (")
	h.mu.Lock()
	h.part = part
	h.mu.Unlock()
	h.Count(what)
}

// Count passes on how far the part got ("12 tests done, …"): it is no
// part of its own, so a beat still names the one under way.
func (h *heartbeat) Count(what string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.last = time.Now()
	h.say(what)
}

func (h *heartbeat) beat() {
	tick := time.NewTicker(heartbeatEvery / 6)
	defer tick.Stop()
	for {
		select {
		case <-h.done:
			return
		case <-tick.C:
		}
		h.mu.Lock()
		if time.Since(h.last) >= heartbeatEvery && h.part != "" {
			h.last = time.Now()
			what := "still " + h.part
			if h.more != nil {
				what += h.more()
			}
			h.say(what)
		}
		h.mu.Unlock()
	}
}

func (h *heartbeat) stop() { close(h.done) }

// detail sets (nil: clears) what a beat adds to the part under way.
func (h *heartbeat) detail(more func() string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.more = more
}
