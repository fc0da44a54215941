package viewer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Recorder turns the demo's trace lines into Steps: each line gets a
// snapshot of every component, taken from the state function. It writes
// each Step as one JSON line when given a writer, and hands Steps to the
// viewer's pages as they come.
type Recorder struct {
	state func() State // nil until SetState

	mu      sync.Mutex
	keep    int // 0: every step; else only the newest keep
	dropped int // steps let go of because of keep
	start   time.Time
	section int
	title   string
	writes  []string
	steps   []Step
	out     *bufio.Writer // nil: keep the steps only
	err     error         // the first write error
	closed  bool
	changed chan struct{} // closed and replaced at every new step
}

// NewRecorder starts a trace now. out, when not nil, gets one JSON line
// per step.
func NewRecorder(out io.Writer) *Recorder {
	r := &Recorder{start: time.Now(), changed: make(chan struct{})}
	if out != nil {
		r.out = bufio.NewWriter(out)
	}
	return r
}

// Keep makes the recorder hold only the newest n steps, for a controller
// that runs for days (rollout-controller -view). Call it before the first
// step.
func (r *Recorder) Keep(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep = n
}

// SetState sets where snapshots come from: the components exist only after
// the recorder (which traces their construction) does. It must be called
// before the first Trace from another goroutine.
func (r *Recorder) SetState(state func() State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state = state
}

// Section starts the next part of the story.
func (r *Recorder) Section(title string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.section++
	r.title = title
}

// Trace records one step. The snapshot is taken before the recorder's
// lock: it takes each component's lock in turn, and a component can be
// tracing (and waiting for this lock) while it holds its own.
func (r *Recorder) Trace(stage, key, message string) {
	r.mu.Lock()
	state := r.state
	r.mu.Unlock()
	var s State
	if state != nil {
		s = state()
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if stage == "api" || stage == "event" {
		r.writes = append(r.writes, message)
		if len(r.writes) > MaxWrites {
			r.writes = r.writes[len(r.writes)-MaxWrites:]
		}
	}
	s.API = append([]string{}, r.writes...)
	step := Step{
		Seq: r.dropped + len(r.steps) + 1, At: time.Since(r.start).Seconds(),
		Section: r.section, Title: r.title,
		Stage: stage, Key: key, Message: message, State: s,
	}
	r.steps = append(r.steps, step)
	if r.keep > 0 && len(r.steps) > r.keep {
		n := len(r.steps) - r.keep
		r.steps = append(r.steps[:0:0], r.steps[n:]...)
		r.dropped += n
	}
	if r.out != nil && r.err == nil {
		line, err := json.Marshal(step)
		if err == nil {
			_, err = r.out.Write(append(line, '\n'))
		}
		r.err = err
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// Close ends the trace: no more steps, and live pages are told the story
// is over. It returns the first error writing the trace, if any.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		close(r.changed)
		if r.out != nil && r.err == nil {
			r.err = r.out.Flush()
		}
	}
	return r.err
}

// Steps returns the steps after the first seen ones (or the oldest
// still held, when those are gone), whether the trace is closed, and a
// channel that is closed when there is more to read. Read on from the
// last step's Seq.
func (r *Recorder) Steps(seen int) (steps []Step, closed bool, more <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	from := max(seen-r.dropped, 0)
	if from < len(r.steps) {
		steps = r.steps[from:len(r.steps):len(r.steps)]
	}
	return steps, r.closed, r.changed
}

// Replay is a recorder holding a saved trace, already closed.
func Replay(in io.Reader) (*Recorder, error) {
	r := NewRecorder(nil)
	dec := json.NewDecoder(in)
	for {
		var s Step
		err := dec.Decode(&s)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("trace step %d: %w (a trace is the JSON lines make demo TRACE=path writes)", len(r.steps)+1, err)
		}
		if s.Seq != len(r.steps)+1 {
			return nil, fmt.Errorf("trace step %d has seq %d: the file is not one whole trace", len(r.steps)+1, s.Seq)
		}
		r.steps = append(r.steps, s)
	}
	if len(r.steps) == 0 {
		return nil, fmt.Errorf("the trace is empty: record one with make demo TRACE=path")
	}
	r.Close()
	return r, nil
}
