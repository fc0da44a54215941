// Command workshop is the learner's runner: it runs your copy of each
// chapter's exercises and tells you where you stand and what to do next.
//
//	go run ./workshop/cmd/workshop [command] [flags]
//
// The commands (run it with "help" for the full list):
//
//	status [CH]       every chapter and exercise, and the next step (the default)
//	check [CH] [EX]   run your copy of a chapter, or show one exercise
//	hint CH EX        an exercise's hint; ask again for a deeper one
//	watch             re-run the current exercise every time you save
//	reset CH [EX]     put a chapter, or one exercise, back as generated
//	solution CH EX    the reference code, once your exercise passes
//	start CH [TRACK]  choose a chapter's track (core, deep or blank) before reading it
//	deep CH           take on a chapter's deep track too
//	blank CH          every exercise of both tracks stubbed at once
//	core CH           put a chapter's core track back
//	restore [CH [B]]  put back a backup the commands above kept
//
// The work is done by package runner; this file only reads the command line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/runner"
)

const usage = `usage: go run ./workshop/cmd/workshop [command] [flags]

  start CH [TRACK]  choose how you do chapter CH before you read it: core (its
                    rules), deep (its locking and loops too) or blank
                    (everything from scratch); asks when TRACK is left out
  status [CH]       every chapter (or chapter CH) and exercise as pass, fail or
                    not started, with progress bars and the next step (the
                    default)
  check [CH] [EX]   run your copy of chapter CH (e.g. 03), or show exercise EX
                    alone, with the first step that diverged and its hint
  hint CH EX        the hint of exercise EX; ask again for a deeper hint
  watch             re-run the current exercise every time you save a file,
                    and move on when it passes
  reset CH [EX]     put your copy of a chapter, or of one exercise, back as
                    generated (asks first, and keeps a backup); reset CH FUNC
                    puts back one function outside the exercises
  solution CH EX    the reference code of an exercise, once yours passes
  deep CH           take on the deep track of chapter CH: the locking, loops
                    and lifecycles the core track writes for you become
                    exercises too (asks first, keeps a backup)
  demo [FLAGS]      the sample controller on your own chapters: each one whose
                    exercises all pass stands in for the reference (make demo
                    MINE=1); FLAGS go to the demo
  blank CH          build chapter CH from scratch: every exercise of both
                    tracks stubbed at once (asks first, keeps a backup)
  core CH           put the core track of chapter CH back: the deep
                    exercises' code is written for you again, your core work
                    stays (asks first, keeps a backup)
  restore [CH [B]]  list the backups of chapter CH (without CH, of the chapter
                    backed up last), newest first, and put one back (asks
                    first, and backs up what it replaces)

flags (before or after the command):
  --mine            build each chapter on your own earlier chapters instead of
                    their reference code
  --yes             answer yes to the question of reset, start, core, deep,
                    blank and restore (start and a first check: core)
  --poll DURATION   how often watch looks for changes (default 500ms)
`

func main() {
	// A reader that stops early (check 02 | head) closes the pipe while
	// the runner still has checks to judge and its results to save: by
	// default the next write would end the process there, and the next
	// command would work from the check before (trial X). Ignored, the
	// write fails, unseen, and the runner finishes.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		return demo(args[1:], stdout, stderr) // its flags are the demo's
	}
	fs := flag.NewFlagSet("workshop", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mine := fs.Bool("mine", false, "")
	yes := fs.Bool("yes", false, "")
	poll := fs.Duration("poll", 500*time.Millisecond, "")

	// Flags may come before or after the command and its arguments.
	var flags, words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "--help" || a == "-help":
			words = append(words, "help")
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
			if (a == "--poll" || a == "-poll") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			words = append(words, a)
		}
	}
	if err := fs.Parse(flags); err != nil {
		fmt.Fprintf(stderr, "%v\n\n%s", err, usage)
		return 2
	}
	cmd := "status"
	if len(words) > 0 {
		cmd, words = words[0], words[1:]
	}
	if cmd == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}

	root, err := chapters.Root()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	r := runner.New(root)
	r.Mine, r.Yes, r.Poll = *mine, *yes, *poll

	switch cmd {
	case "status":
		err = want(words, 0, 1, "status [CH]")
		if err == nil {
			ch := ""
			if len(words) > 0 {
				ch = words[0]
			}
			err = r.Status(ch)
		}
	case "check":
		err = want(words, 0, 2, "check [CH] [EX]")
		if err == nil {
			ch, id := "", 0
			if len(words) > 0 {
				ch = words[0]
			}
			if len(words) > 1 {
				id, err = exerciseArg(words[1])
			}
			if err == nil {
				err = r.Check(ch, id)
			}
		}
	case "hint", "solution":
		err = want(words, 2, 2, cmd+" CH EX")
		if err == nil {
			var id int
			if id, err = exerciseArg(words[1]); err == nil {
				if cmd == "hint" {
					err = r.Hint(words[0], id)
				} else {
					err = r.Solution(words[0], id)
				}
			}
		}
	case "reset":
		err = want(words, 1, 2, "reset CH [EX|FUNC]")
		if err == nil {
			id := 0
			if len(words) > 1 && isFuncName(words[1]) {
				err = r.ResetFunc(words[0], words[1])
				break
			}
			if len(words) > 1 {
				id, err = exerciseArg(words[1])
			}
			if err == nil {
				err = r.Reset(words[0], id)
			}
		}
	case "deep", "blank", "core":
		err = want(words, 1, 1, cmd+" CH")
		if err == nil {
			switch cmd {
			case "deep":
				err = r.Deep(words[0])
			case "blank":
				err = r.Blank(words[0])
			default:
				err = r.Core(words[0])
			}
		}
	case "start":
		err = want(words, 1, 2, "start CH [core|deep|blank]")
		if err == nil {
			err = r.Start(words[0], optional(words, 1))
		}
	case "restore":
		err = want(words, 0, 2, "restore [CH [BACKUP]]")
		if err == nil {
			err = r.Restore(optional(words, 0), optional(words, 1))
		}
	case "watch":
		err = want(words, 0, 0, "watch")
		if err == nil {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go exitWhenOrphaned(stop)
			err = r.Watch(ctx)
		}
	default:
		fmt.Fprintf(stderr, "There is no command %q.\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, runner.ErrNotAllPass):
		return 1 // already explained
	default:
		fmt.Fprintln(stderr, err)
		if full := runner.DiskFull(err.Error()); full != "" {
			fmt.Fprintf(stderr, "\n%s\n", full)
		}
		return 1
	}
}

// demo runs the sample controller on your own chapters (make demo MINE=1).
func demo(args []string, stdout, stderr io.Writer) int {
	root, err := chapters.Root()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	r := runner.New(root)
	r.Out = stdout
	if err := r.Demo(args); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// want checks the number of arguments a command got.
func want(words []string, least, most int, form string) error {
	if len(words) < least || len(words) > most {
		return fmt.Errorf("usage: %s %s (for example: %s)", runner.Cmd, form, example(form))
	}
	return nil
}

func example(form string) string {
	r := strings.NewReplacer("[CH]", "03", "CH", "03", "[EX]", "1", "EX", "1", "[core|deep|blank]", "core", "[BACKUP]", "")
	return strings.TrimSpace(runner.Cmd + " " + r.Replace(form))
}

// optional is words[i], or "" when there are fewer words.
func optional(words []string, i int) string {
	if i < len(words) {
		return words[i]
	}
	return ""
}

// isFuncName says whether a reset's second word names a function
// (DeltaFIFO.Close) rather than an exercise.
func isFuncName(s string) bool {
	return s != "" && (s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z')
}

func exerciseArg(s string) (int, error) {
	id, err := strconv.Atoi(s)
	if err != nil || id < 1 {
		return 0, fmt.Errorf("an exercise is a number such as 1, not %q", s)
	}
	return id, nil
}

// exitWhenOrphaned ends watch once the process that started it is gone.
// `go run` runs this binary as its child, and killing `go run` alone (its
// pid, not the terminal's whole group, as an editor or a script does)
// would leave watch polling, and checking, with no one to read it. It
// asks Watch to stop, then exits if a check keeps it busy: watch never
// writes your files, so nothing is lost.
func exitWhenOrphaned(stop func()) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			stop()
			time.Sleep(2 * time.Second)
			os.Exit(1)
		}
	}
}
