// Package runner is the learner's runner, the code behind
// `go run ./workshop/cmd/workshop` (and `make workshop`).
//
// Every command works on the learner's copy of the chapters (NN-name/exercise)
// and says what to do next:
//
//   - Status runs every chapter's scenarios and shows pass, fail or not
//     started per exercise, a progress bar per chapter and overall, and
//     the next step.
//   - Check runs one chapter (or shows one exercise) with the harness's own
//     failure report: the first step that diverged and the hint.
//   - Hint shows an exercise's hint, and the deeper hint when asked again.
//   - Watch re-runs the current exercise whenever a file of the learner's
//     copy changes, and moves on when it passes.
//   - Reset puts a chapter, or one exercise, back as the generator wrote it,
//     after asking and after a backup.
//   - Solution shows the reference code of an exercise once it passes.
//
// With Mine set, a chapter is built on the learner's own copies of the
// earlier chapters it imports instead of their reference code (see
// MineOverlay).
//
// Pass and fail always come from `go test -json` (package progress); the
// state file (.cache/workshop/state.json) only remembers which hints were
// shown, the exercise watch is on, and the backups reset made.
package runner

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/wrap"
)

// Cmd is how the learner starts the runner; the output quotes it in every
// next step.
const Cmd = "go run ./workshop/cmd/workshop"

// Width is the widest line the runner writes itself.
const Width = 80

// ErrNotAllPass is returned by Check when some exercise does not pass, so
// the command exits non-zero (for `make exercise`) without printing more.
var ErrNotAllPass = errors.New("not every exercise passes")

// Runner holds what every command needs.
type Runner struct {
	Root string    // the workspace root, where go.work is
	Out  io.Writer // where the runner talks to you
	// Race builds your copy's tests under the race detector (New sets
	// it: every chapter has locks or goroutines). The runner's own tests
	// leave it off for speed; selftest proves the race checks.
	Race bool
	// Warm has start compile a chapter's dependencies in the background
	// for its first check (New sets it; the runner's own tests leave it
	// off).
	Warm bool
	// Progress, if set, hears what a check is doing while it runs
	// (standard error, in New): a check is never silent for more than a
	// few seconds.
	Progress io.Writer
	In       io.Reader     // your answers to its questions (reset)
	Color    bool          // colour the output (a terminal, NO_COLOR unset)
	Clear    bool          // watch clears the screen before each run (a terminal)
	Mine     bool          // build on your earlier chapters that pass, not the reference
	Yes      bool          // answer yes to every question
	Poll     time.Duration // how often watch looks for changes
	// Terminal says a person answers on In even when In is not a
	// terminal itself (tests); a terminal on In always counts.
	Terminal bool

	now         func() time.Time // for tests; time.Now when nil
	watching    bool             // inside Watch: next steps need no re-run command
	answers     *bufio.Reader    // In, buffered once for every question
	answersFrom io.Reader        // the In that answers reads
	// picked is set while a track you just chose in answer to a question
	// is written: on an untouched copy it needs no second question.
	picked bool
	// checking is set while a check chooses the chapter's track first:
	// the check itself is the next step.
	checking bool
	// noAnswer is set when the last question got no answer: the input
	// ended (a script, a closed pipe) before a line came.
	noAnswer bool
	// plain remembers the checks --mine makes of earlier chapters, so a
	// command checks each once (nil: no memory, each is checked again).
	plain *plainChecks
	// reuse takes a chapter's last whole check when nothing it was judged
	// on changed since (progress.Options.Reuse): status does, and so do
	// the checks --mine makes of earlier chapters; check NN of the chapter
	// you name always runs.
	reuse bool
	// board, while status checks every chapter, says what they do in
	// one voice (board.go).
	board *board
}

// New returns a runner for the workspace at root that talks on the
// process's standard streams, with colour and screen clearing only when
// stdout is a terminal and NO_COLOR is unset.
func New(root string) *Runner {
	term := IsTerminal(os.Stdout)
	return &Runner{
		Root:     root,
		Out:      os.Stdout,
		Race:     true,
		Warm:     true,
		Progress: os.Stderr,
		In:       os.Stdin,
		Color:    term && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
		Clear:    term && os.Getenv("TERM") != "dumb",
		Poll:     500 * time.Millisecond,
		plain:    &plainChecks{},
	}
}

// IsTerminal reports whether f is a character device, such as a terminal.
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func (r *Runner) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

// printf writes formatted text as it is.
func (r *Runner) printf(format string, args ...any) {
	fmt.Fprintf(r.Out, format, args...)
}

// say writes text folded to Width, continuing lines under the label:
// say("Hint: ", text) lines the continuation up after "Hint: ".
func (r *Runner) say(label, text string) {
	fmt.Fprintln(r.Out, Wrap(label, text, Width))
}

// Wrap folds text into lines of at most width columns (wrap.Label).
func Wrap(label, text string, width int) string { return wrap.Label(label, text, width) }

// Bar draws done out of total as "[#####-----] 3/6" with a bar of width
// cells.
func Bar(done, total, width int) string {
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	return fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat("-", width-filled), done, total)
}

// ANSI colours, used only when r.Color is set.
const (
	green  = "\x1b[32m"
	red    = "\x1b[31m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

func (r *Runner) paint(color, s string) string {
	if !r.Color {
		return s
	}
	return color + s + reset
}

// chapter finds one chapter by number or name.
func (r *Runner) chapter(arg string) (chapters.Chapter, error) {
	found, err := chapters.Find(r.Root, arg)
	if err != nil {
		return chapters.Chapter{}, err
	}
	return found[0], nil
}

// exercise finds exercise id of a chapter.
func exercise(c chapters.Chapter, id int) (exgen.Exercise, error) {
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return exgen.Exercise{}, err
	}
	for _, ex := range list {
		if ex.ID == id {
			return ex, nil
		}
	}
	if len(list) == 0 {
		return exgen.Exercise{}, fmt.Errorf("%s has no exercises yet", c.Name)
	}
	return exgen.Exercise{}, fmt.Errorf("%s has exercises 1 to %d; there is no exercise %d", c.Name, len(list), id)
}

// run checks a chapter: your exercise copy, with --mine on your copies of
// the earlier chapters whose exercises all pass (the choice it returns).
// offTrack names the exercises off your track, whose tests also judge
// the exercises on it (progress.Options.OffTrack).
func (r *Runner) run(c chapters.Chapter, offTrack func(int) bool, only int) (*progress.Chapter, *mineChoice, error) {
	opts := progress.Options{Race: r.Race, OffTrack: offTrack, Say: r.sayProgress(c), Only: only, Keep: true, Reuse: r.reuse,
		PassedPrints: LoadState(r.Root).passedPrints(c.Name)}
	var choice *mineChoice
	if r.Mine {
		deps, err := chapters.Deps(r.Root, c)
		if err != nil {
			return nil, nil, err
		}
		m := r.chooseMine(deps)
		choice = &m
		if opts.Files, err = MineOverlay(c, m.yours); err != nil {
			return nil, nil, err
		}
	}
	res, err := progress.CheckWith(c, opts)
	return res, choice, err
}

// sayProgress is what a check of c says while it runs, on r.Progress,
// with the time since it started.
func (r *Runner) sayProgress(c chapters.Chapter) func(string) {
	if r.Progress == nil {
		return nil
	}
	if b := r.board; b != nil {
		return func(what string) { b.say(c.Name, what) }
	}
	start, last := time.Now(), time.Now()
	f, ok := r.Progress.(*os.File)
	live := ok && IsTerminal(f)
	var mu sync.Mutex
	return func(what string) {
		mu.Lock()
		defer mu.Unlock()
		// Off a terminal (a log, an editor's task), that a part is still
		// under way is said every 10 s, not every 1.5 s (trial S's first
		// check wrote 40 "still building" lines to its log).
		if !live && strings.HasPrefix(what, "still ") && time.Since(last) < quietLogFor {
			return
		}
		last = time.Now()
		fmt.Fprintf(r.Progress, "%s: %s (%ds)\n", c.Name, what, int(time.Since(start).Seconds()))
	}
}

// quietLogFor is how long a check's progress written to a file or a pipe
// goes without saying that the part under way still is.
const quietLogFor = 10 * time.Second

// exerciseFile is where you edit an exercise, relative to the root.
func exerciseFile(c chapters.Chapter, ex exgen.Exercise) string {
	return joinFiles(c, append([]string{ex.File}, ex.Files...))
}

// joinFiles names files of a chapter's exercise copy, the first with its
// path, the others beside it, each once: "01-listwatch/exercise/frames.go,
// objects.go" (the 01 trial was sent to frames.go alone for an exercise
// with four of its five functions in objects.go).
func joinFiles(c chapters.Chapter, files []string) string {
	var names []string
	for _, f := range files {
		if name := filepath.Base(f); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	names[0] = c.Name + "/" + exgen.ExerciseDir + "/" + names[0]
	return strings.Join(names, ", ")
}

// cmd is a runner command line for you to type: Cmd, then the words,
// then --mine when this run has it (for the commands that run tests).
func (r *Runner) cmd(words ...string) string {
	line := Cmd + " " + strings.Join(words, " ")
	switch words[0] {
	case "check", "status", "watch", "solution":
		if r.Mine {
			line += " --mine"
		}
	}
	return line
}

// checkCmd is the command that checks one exercise.
func (r *Runner) checkCmd(c chapters.Chapter, id int) string {
	return r.cmd("check", c.Number(), fmt.Sprint(id))
}

// next writes a next step: text, folded, then each command on a line of
// its own, indented, ready to copy.
func (r *Runner) next(text string, cmds ...string) {
	r.say("", text)
	for _, c := range cmds {
		r.printf("  %s\n", c)
	}
}
