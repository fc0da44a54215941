package scenario

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// divergence is the first step of a scenario whose trace was not the
// recorded one.
type divergence struct {
	step       int
	pos        string // file:line of the step
	cmd, input string
	before     []string // the commands of the steps just before it, oldest first
	comment    string
	want, got  string
	panicked   *stepPanic
}

// StepReport matches the first line of a step's report as report writes
// it ("<file>.txt:<line>: step <n> diverged", or stopped): where the
// harness's own account starts in a test's output.
var StepReport = regexp.MustCompile(`(?m)^\S+\.txt:\d+: step \d+ (diverged|stopped)`)

// report writes a failure for a person: where, what the scenario and the
// step are about, what differed, and what to do next.
func report(chapter, impl, recordedFrom string, f *File, d *divergence) string {
	if recordedFrom == "" {
		recordedFrom = "client-go"
	}
	if OnYourCopy() {
		impl = "your copy"
	}
	var b strings.Builder
	writeStep(&b, relToWorkspace(chapter, d.pos), impl, f, d)
	h := writeDifference(&b, chapter, recordedFrom, impl, f, d)
	switch {
	case d.panicked.notDone() != nil:
		writeHints(&b, impl, h)
	case OnYourCopy():
		// The runner finds whose code diverged and names that exercise.
	case impl == Exercise:
		writeChecks(&b, h)
	default:
		writeHints(&b, impl, h)
	}
	return b.String()
}

// hints are the exercises a report speaks of: their markers (from the
// chapter owner's reference) and the ids to show.
type hints struct {
	byID  map[int]exgen.Exercise
	owner string
	blame []int
}

// writeStep writes where the step is, what happened to it, and what the
// scenario and the step are about.
func writeStep(b *strings.Builder, rel, impl string, f *File, d *divergence) {
	what := "diverged"
	if d.panicked != nil {
		what = "stopped"
	}
	fmt.Fprintf(b, "\n%s: step %d %s (implementation: %s)\n", rel, d.step, what, impl)
	if f.Story != "" {
		fmt.Fprintf(b, "  Scenario: %s\n", wrap(f.Story, "            "))
	}
	for i, cmd := range d.before {
		label := ""
		if i == 0 {
			label = "After:"
		}
		cmd, input, _ := strings.Cut(cmd, "\n")
		fmt.Fprintf(b, "  %-10s%d %s\n", label, d.step-len(d.before)+i, cmd)
		for _, line := range strings.Split(input, "\n") {
			if line != "" {
				fmt.Fprintf(b, "              %s\n", line)
			}
		}
	}
	// The label is padded like the others, so a two-digit step lines up.
	fmt.Fprintf(b, "  %-10s%s\n", fmt.Sprintf("Step %d:", d.step), d.cmd)
	for _, line := range strings.Split(strings.TrimRight(d.input, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(b, "            %s\n", line)
		}
	}
	if d.comment != "" {
		fmt.Fprintf(b, "  Why:      %s\n", wrap(d.comment, "            "))
	}
}

// writeDifference writes what differed: the exercise a stub stopped the
// step at, a panic, or the trace against the recorded one. It returns the
// exercises to speak of.
func writeDifference(b *strings.Builder, chapter, recordedFrom, impl string, f *File, d *divergence) hints {
	// The hints come from the markers of the reference (exercisesOf), of
	// the chapter whose stub stopped the step when one did.
	h := hints{byID: exercisesOf(chapter, ""), owner: filepath.Base(chapter), blame: f.Exercises}
	switch nd := d.panicked.notDone(); {
	case nd != nil:
		fmt.Fprintf(b, "  Stopped:  this step needs %s exercise %d, which is not done yet.\n", nd.Chapter, nd.Exercise)
		h = hints{byID: exercisesOf(chapter, nd.Chapter), owner: nd.Chapter, blame: []int{nd.Exercise}}
	case d.panicked != nil:
		b.WriteString(panicReport(d.panicked.value, d.panicked.stack))
	case oneLine(d.want) && oneLine(d.got):
		fmt.Fprintf(b, "  Recorded: %s\n  Got:      %s\n", CutMiddle(strings.TrimSpace(d.want)), CutMiddle(strings.TrimSpace(d.got)))
	default:
		fmt.Fprintf(b, "  Trace (-recorded from %s, +%s):\n%s", recordedFrom, impl, indent(lineDiff(d.want, d.got), "    "))
	}
	return h
}

// writeChecks is the advice of plain go test on your copy: the file's tag
// says what the scenario checks, not whose code diverged (a step may run
// any exercise's code); only the runner's swaps can tell.
func writeChecks(b *strings.Builder, h hints) {
	for _, id := range h.blame {
		if ex, ok := h.byID[id]; ok {
			fmt.Fprintf(b, "  Checks:   exercise %d (%s): %s\n", id, ex.File, ex.Title)
		}
	}
	fmt.Fprintf(b, "  Next:     the step may run the code of other exercises too; `make exercise CH=%s`\n"+
		"            finds whose code diverged and shows its hint.\n", h.owner[:2])
}

// writeHints writes each exercise's title and hint, and on the exercise
// copy which file to edit.
func writeHints(b *strings.Builder, impl string, h hints) {
	for _, id := range h.blame {
		ex, ok := h.byID[id]
		if !ok {
			continue
		}
		fmt.Fprintf(b, "  Exercise %d (%s): %s\n  Hint:     %s\n", id, ex.File, ex.Title, wrap(ex.Hint, "            "))
	}
	if impl == Exercise && len(h.blame) > 0 {
		if ex, ok := h.byID[h.blame[0]]; ok {
			fmt.Fprintf(b, "  Next:     edit %s, then run `make exercise CH=%s`.\n",
				filepath.Join(h.owner, exgen.ExerciseDir, ex.File), h.owner[:2])
		}
	}
}

// relToWorkspace shortens an absolute step position to start at the
// chapter directory, which is how a learner names files.
func relToWorkspace(chapter, pos string) string {
	root := filepath.Dir(chapter) + string(filepath.Separator)
	return strings.TrimPrefix(pos, root)
}

// chapterFrames keeps the lines of a stack trace that point into chapter
// code, dropping the runtime and the harness: those are the lines to read.
func chapterFrames(stack string) string {
	var keep []string
	lines := strings.Split(stack, "\n")
	// Each frame is a function line and, under it, a tab-indented
	// file:line; the stack starts with a "goroutine N [running]:" line.
	for i := 1; i < len(lines); i++ {
		fn, loc := lines[i-1], lines[i]
		if !strings.HasPrefix(loc, "\t") || strings.HasPrefix(fn, "\t") {
			continue
		}
		if strings.Contains(fn, "example.com/walkthrough/") && !strings.Contains(fn, "example.com/walkthrough/workshop") {
			keep = append(keep, strings.TrimSpace(fn), "  "+strings.TrimSpace(loc))
		}
	}
	if len(keep) > 12 {
		keep = keep[:12]
	}
	return strings.Join(keep, "\n") + "\n"
}

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}

func oneLine(s string) bool { return !strings.Contains(strings.TrimSuffix(s, "\n"), "\n") }

// wrap folds text to fit 80 columns after a 12-column label, continuing
// each line with prefix.
func wrap(text, prefix string) string {
	return strings.Join(Fold(text, 80-12), "\n"+prefix)
}

// Fold breaks text at spaces into lines of at most width columns (a word
// longer than width keeps a line of its own: never cut).
func Fold(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		line = strings.TrimSpace(line + " " + word)
	}
	return append(lines, line)
}
