package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/viewer"
)

// recorder prints Events as the trace's last stage.
type recorder struct{ p *printer }

func (r recorder) Eventf(obj runtime.Object, eventtype, reason, format string, args ...any) {
	// The controller already traces each Event (stage "event"); a real
	// cluster would get an Event object here.
}

// printer writes the live trace, 80 columns wide, and keeps the numbers
// for the summary.
type printer struct {
	mu      sync.Mutex
	out     io.Writer
	rec     *viewer.Recorder // nil: no viewer, no trace file
	ns      string
	start   time.Time
	step    *stepStats
	steps   []*stepStats
	byStage map[string]int
	// lateWrites counts API writes traced after their step's "done"
	// line (a status update the simulated Deployment controller caused).
	lateWrites int
}

type stepStats struct {
	title           string
	start           time.Time
	took            time.Duration
	writes, retries int
	stages          map[string]int
	messages        string
	// closed is set when the step's "done" line is printed: what the
	// trace shows after it is not counted in the step (lateWrites).
	closed bool
}

// stageOrder is the order of the columns in the summary: the server's
// stages first, on a server that traces any (servertrace.go).
var stageOrder = append(serverStages, "reflector", "fifo", "indexer", "handler", "queue", "worker", "api", "event")

// stageWidth is the stage column's: "reflector", or the longest server
// stage.
var stageWidth = func() int {
	w := len("reflector")
	for _, s := range serverStages {
		w = max(w, len(s))
	}
	return w
}()

func newPrinter(out io.Writer, ns string, rec *viewer.Recorder) *printer {
	return &printer{out: out, rec: rec, ns: ns, start: time.Now(), byStage: map[string]int{}}
}

func (p *printer) banner(where string) {
	fmt.Fprintln(p.out, wrap("Rollout controller demo: chapters 01-05 wired into one controller, on "+where+".", 80, ""))
	fmt.Fprintf(p.out, "Each line is one step of one change:\n")
	if len(serverStages) > 0 {
		fmt.Fprintf(p.out, "  %s (chapter 07's server) →\n", strings.Join(serverStages, " → "))
	}
	fmt.Fprintf(p.out, "  reflector → fifo → indexer → handler → queue → worker → api (+ event)\n")
	fmt.Fprintf(p.out, "Objects are in namespace %q.\n", p.ns)
}

func (p *printer) section(title string) {
	if p.rec != nil {
		p.rec.Section(title)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.steps) + 1
	p.step = &stepStats{title: title, start: time.Now(), stages: map[string]int{}}
	p.steps = append(p.steps, p.step)
	head := fmt.Sprintf("── %d. %s ", n, title)
	if pad := 80 - len([]rune(head)); pad > 0 {
		head += strings.Repeat("─", pad)
	}
	fmt.Fprintf(p.out, "\n%s\n", head)
}

// settle lets the trace of a step's last changes print before its footer.
func (p *printer) settle() { time.Sleep(30 * time.Millisecond) }

func (p *printer) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step.took = time.Since(p.step.start)
	p.step.closed = true
	fmt.Fprintf(p.out, "%*s\n", 80, fmt.Sprintf("done in %s: %d API writes, %d retries",
		p.step.took.Round(time.Millisecond), p.step.writes, p.step.retries))
}

func (p *printer) trace(stage, key, msg string) {
	// The recorder snapshots every component: not under p.mu, which a
	// goroutine holding a component's lock may be waiting for.
	if p.rec != nil {
		p.rec.Trace(stage, key, msg)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	name := strings.TrimPrefix(key, p.ns+"/")
	if name == "" {
		name = "-"
	}
	head := fmt.Sprintf("%7.3fs %-*s %-6s ", time.Since(p.start).Seconds(), stageWidth, stage, name)
	fmt.Fprintln(p.out, head+wrap(msg, 80-len([]rune(head)), strings.Repeat(" ", len([]rune(head)))))
	p.byStage[stage]++
	if p.step != nil {
		p.step.messages += msg + "\n"
	}
	if p.step != nil && p.step.closed {
		// The summary counts what the trace shows before "done".
		if stage == controller.StageAPI {
			p.lateWrites++
		}
	} else if p.step != nil {
		p.step.stages[stage]++
		if stage == controller.StageAPI {
			p.step.writes++
		}
		if stage == controller.StageQueue && strings.HasPrefix(msg, "retry later") {
			p.step.retries++
		}
	}
}

// stepSaw reports whether a trace line of the current step contains msg.
func (p *printer) stepSaw(msg string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.step != nil && strings.Contains(p.step.messages, msg)
}

func (p *printer) summary() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n%s\n", "── Summary "+strings.Repeat("─", 69))
	fmt.Fprintf(p.out, "%-50s %5s %6s %7s %8s\n", "step", "lines", "writes", "retries", "time")
	for i, s := range p.steps {
		lines := 0
		for _, n := range s.stages {
			lines += n
		}
		title := strings.Split(wrap(fmt.Sprintf("%d. %s", i+1, s.title), 50, "   "), "\n")
		fmt.Fprintf(p.out, "%-50s %5d %6d %7d %8s\n", title[0], lines, s.writes, s.retries, s.took.Round(time.Millisecond))
		for _, more := range title[1:] {
			fmt.Fprintln(p.out, more)
		}
	}
	fmt.Fprintf(p.out, "%-50s %5s %6s %7s %8s\n", "total, with pauses to read", "", "", "", time.Since(p.start).Round(time.Millisecond))
	fmt.Fprintln(p.out)
	var stages []string
	for _, s := range stageOrder {
		stages = append(stages, fmt.Sprintf("%s %d", s, p.byStage[s]))
	}
	var extra []string
	for s, n := range p.byStage {
		if !contains(stageOrder, s) {
			extra = append(extra, fmt.Sprintf("%s %d", s, n))
		}
	}
	sort.Strings(extra)
	fmt.Fprintln(p.out, wrap("Lines per stage: "+strings.Join(append(stages, extra...), ", ")+".", 80, ""))
	if p.lateWrites > 0 {
		fmt.Fprintln(p.out, wrap(fmt.Sprintf("%d API %s landed after the \"done\" line of %s step; the trace shows %s, the steps above do not count %s.",
			p.lateWrites, plural(p.lateWrites, "write", "writes"), plural(p.lateWrites, "its", "their"), plural(p.lateWrites, "it", "them"), plural(p.lateWrites, "it", "them")), 80, ""))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrap folds text into lines of at most width runes, breaking between
// words, and starts every line after the first with indent: a trace line
// is read in full, never cut.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		line = strings.TrimSpace(line + " " + word)
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n"+indent)
}
