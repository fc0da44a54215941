package transcripts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/runner"
)

// Step is one command of the story: what the learner does to their copy
// first (Prepare), the command line as the doc shows it (Args, after
// runner.Cmd), what they answer to its questions (Answer), and the call
// into the runner that the command line makes (Run).
type Step struct {
	Name    string
	Args    string
	Prepare func(s *Session) error
	Answer  string
	Yes     bool
	Run     func(s *Session, r *runner.Runner) error
	// After is how long after the step before it this one starts, on the
	// story's clock (what watch prints, and the backups' names).
	After time.Duration
	// HideBodies leaves the bodies of the functions the step prints out
	// of the doc: a reader who has not written them yet would otherwise
	// read the answer on the way (trial S had 03's exercise 2 solved
	// before it opened the stub).
	HideBodies bool
}

// Session is a story being played: the workspace and its clock.
type Session struct {
	Root string    // the temporary copy of the repository
	Log  io.Writer // where the progress of the checks goes

	output string // a step's own capture of its output (watch)

	mu  sync.Mutex
	now time.Time
}

func (s *Session) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *Session) advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(d)
}

// Start is the story's clock when it begins.
var Start = time.Date(2026, 11, 22, 2, 31, 4, 0, time.UTC)

// Story is the learner's way through the doc, in the order they go.
var Story = []Step{
	{Name: "status-fresh", Args: "status", Run: func(s *Session, r *runner.Runner) error { return r.Status("") }},
	{Name: "hint-03-2", Args: "hint 03 2", After: 95 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Hint("03", 2) }},
	{Name: "solution-03-2-hidden", Args: "solution 03 2", After: 20 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Solution("03", 2) }},
	{Name: "hint-03-2-deeper", Args: "hint 03 2", After: 40 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Hint("03", 2) }},
	{Name: "check-03-2-wrong", Args: "check 03 2", After: 70 * time.Second, Prepare: wrongSplit,
		Run: func(s *Session, r *runner.Runner) error { return r.Check("03", 2) }},
	{Name: "check-03-2-fixed", Args: "check 03 2", After: 50 * time.Second,
		Prepare: func(s *Session) error { return s.Fill("03-indexer", 2) },
		Run:     func(s *Session, r *runner.Runner) error { return r.Check("03", 2) }},
	{Name: "check-03", Args: "check 03", After: 30 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Check("03", 0) }},
	{Name: "watch", Args: "watch", After: 25 * time.Second, Run: watch},
	{Name: "solution-03-2", Args: "solution 03 2", After: 40 * time.Second, HideBodies: true,
		Run: func(s *Session, r *runner.Runner) error { return r.Solution("03", 2) }},
	{Name: "reset-03-2", Args: "reset 03 2", Answer: "y\n", After: 30 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Reset("03", 2) }},
	{Name: "status-done", Args: "status", After: 25 * time.Minute,
		Prepare: func(s *Session) error { return s.Fill("03-indexer", all...) },
		Run:     func(s *Session, r *runner.Runner) error { return r.Status("") }},
	{Name: "start-04", Args: "start 04", Answer: "deep\n", After: 3 * time.Minute,
		Run: func(s *Session, r *runner.Runner) error { return r.Start("04", "") }},
	{Name: "deep-05", Args: "deep 05 --yes", Yes: true, After: 40 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Deep("05") }},
	{Name: "check-05", Args: "check 05", After: 20 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Check("05", 0) }},
	{Name: "blank-03", Args: "blank 03 --yes", Yes: true, After: 90 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Blank("03") }},
	{Name: "check-03-blank", Args: "check 03", After: 15 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Check("03", 0) }},
	{Name: "core-03", Args: "core 03 --yes", Yes: true, After: 60 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Core("03") }},
	{Name: "restore-03", Args: "restore 03", Answer: "2\ny\n", After: 30 * time.Second,
		Run: func(s *Session, r *runner.Runner) error { return r.Restore("03", "") }},
}

// all, given to Fill, fills in every exercise.
var all = []int{-1}

// Fill writes a chapter's exercise copy on the core track with the given
// exercises done (their reference code in place) and every other core
// exercise stubbed; the deep exercises keep the reference code, as in
// the committed copy. Fill(ch, -1) fills in every exercise.
func (s *Session) Fill(chapter string, done ...int) error {
	dir := filepath.Join(s.Root, chapter)
	core, err := exgen.CoreStubs(dir)
	if err != nil {
		return err
	}
	files, err := exgen.Generate(dir, func(id int) bool {
		return core(id) && !slices.Contains(done, id) && !slices.Contains(done, -1)
	})
	if err != nil {
		return err
	}
	for name, src := range files {
		if strings.HasPrefix(name, exgen.ExerciseDir) {
			if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// wrongSplit writes exercise 2 of 03 with a bug: a key with two slashes
// splits at the first two instead of being an error.
func wrongSplit(s *Session) error {
	if err := s.Fill("03-indexer", 2); err != nil {
		return err
	}
	path := filepath.Join(s.Root, "03-indexer", exgen.ExerciseDir, "keys.go")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	right := "\tcase 2:\n\t\treturn parts[0], parts[1], nil\n"
	if bytes.Count(data, []byte(right)) != 1 {
		return fmt.Errorf("%s: the reference SplitMetaNamespaceKey changed; the story's wrong answer needs a new edit", path)
	}
	data = bytes.Replace(data, []byte(right), []byte("\tdefault:\n\t\treturn parts[0], parts[1], nil\n"), 1)
	return os.WriteFile(path, data, 0o644)
}

// watch starts watch on the current exercise (1 of 03), saves exercise 1
// done, then exercise 5, and stops it after its third run.
func watch(s *Session, r *runner.Runner) error {
	out := &syncBuffer{}
	r.Out = out
	r.Poll = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Watch(ctx) }()
	const drawn = "Press Ctrl-C to stop."
	waitRuns := func(n int) error {
		deadline := time.Now().Add(15 * time.Minute)
		for strings.Count(out.String(), drawn) < n {
			select {
			case err := <-done:
				return fmt.Errorf("watch stopped before run %d (%v):\n%s", n, err, out.String())
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("watch never drew run %d:\n%s", n, out.String())
			}
		}
		return nil
	}
	saves := []struct {
		after time.Duration
		done  []int
	}{
		{39 * time.Second, []int{1, 2}},
		{63 * time.Second, []int{1, 2, 5}},
	}
	for i, save := range saves {
		if err := waitRuns(i + 1); err != nil {
			return err
		}
		s.advance(save.after)
		if err := s.Fill("03-indexer", save.done...); err != nil {
			return err
		}
	}
	if err := waitRuns(len(saves) + 1); err != nil {
		return err
	}
	cancel()
	err := <-done
	s.output = out.String()
	return err
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Play copies the repository at root (its tracked files, as they are in
// the working tree) to a temporary directory, plays the story on it, and
// returns each step's transcript, by name: the command line, then what
// the command wrote to standard output (what it says on standard error
// while a check runs goes to log). After each step, done hears the
// transcripts so far.
func Play(root string, log io.Writer, done func(texts map[string]string)) (map[string]string, error) {
	tmp, err := os.MkdirTemp("", "transcripts-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	defer stopWarms(tmp)
	if err := copyTracked(root, tmp); err != nil {
		return nil, err
	}
	// The copy has its own go.work; an inherited GOWORK would point the
	// go command back at the repository.
	os.Unsetenv("GOWORK")
	s := &Session{Root: tmp, Log: log, now: Start}
	texts := map[string]string{}
	began := time.Now()
	for _, step := range Story {
		fmt.Fprintf(log, "transcripts: %s: $ %s %s (%ds in)\n", step.Name, runner.Cmd, step.Args, int(time.Since(began).Seconds()))
		s.advance(step.After)
		if step.Prepare != nil {
			if err := step.Prepare(s); err != nil {
				return texts, fmt.Errorf("step %s: %w", step.Name, err)
			}
		}
		out := &syncBuffer{}
		r := runner.New(tmp)
		r.Out, r.Progress = out, prefixed{log}
		r.In = strings.NewReader(step.Answer)
		r.Color, r.Clear, r.Yes = false, false, step.Yes
		r.SetClock(s.clock)
		s.output = ""
		err := step.Run(s, r)
		if err != nil && !errors.Is(err, runner.ErrNotAllPass) {
			return texts, fmt.Errorf("step %s (%s %s): %w\n%s", step.Name, runner.Cmd, step.Args, err, out.String())
		}
		text := out.String()
		if s.output != "" {
			text = s.output
		}
		// Paths in the temporary copy read as paths in the repository.
		text = strings.ReplaceAll(text, tmp+string(filepath.Separator), "")
		if step.HideBodies {
			text = hideBodies(text)
		}
		texts[step.Name] = "$ " + runner.Cmd + " " + step.Args + "\n" + trimLines(text)
		if done != nil {
			done(texts)
		}
	}
	fmt.Fprintf(log, "transcripts: the story took %s\n", time.Since(began).Round(time.Second))
	return texts, nil
}

// hideBodies replaces the body of each function printed in text (from a
// line starting "func " to the next line that is "}") with one line that
// says where to read it.
func hideBodies(text string) string {
	var out []string
	inBody := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "func ") && strings.HasSuffix(line, "{"):
			out = append(out, line, "    … (the body: run the command once your exercise passes)")
			inBody = true
		case inBody && line == "}":
			out = append(out, line)
			inBody = false
		case !inBody:
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// stopWarms stops the background builds start began in the copy at root
// (start 04 begins one): none may outlive the story.
func stopWarms(root string) {
	all, _ := chapters.All(root)
	for _, c := range all {
		progress.StopWarm(c, true)
	}
}

// prefixed indents what a check says while it runs, under the step.
type prefixed struct{ w io.Writer }

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := p.w.Write(append([]byte("    "), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// copyTracked copies the files git tracks in root, as the working tree
// has them, to dst.
func copyTracked(root, dst string) error {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		from := filepath.Join(root, name)
		info, err := os.Lstat(from)
		if err != nil {
			continue // deleted in the working tree
		}
		to := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(from)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
			continue
		}
		if !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// Regenerate plays the story on a copy of the repository at root and
// rewrites every marked transcript block of Doc (and of Twin, when it has
// markers) with the output of its steps, block by block as their steps
// finish, so a story stopped halfway still leaves the blocks it reached
// fresh. Once the whole story has played, it records the inputs' sum in
// SumFile.
func Regenerate(root string, log io.Writer) error {
	for _, name := range []string{Doc, Twin} {
		doc, err := os.ReadFile(filepath.Join(root, name))
		if err != nil && name == Twin {
			continue
		}
		if err != nil {
			return err
		}
		if err := CheckMarkers(doc); err != nil && (name == Doc || err != errNoMarkers) {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	sum, err := Sum(root)
	if err != nil {
		return err
	}
	var writeErr error
	write := func(texts map[string]string) {
		// Read each doc afresh: it may have been edited while the story
		// played (it takes minutes).
		for _, name := range []string{Doc, Twin} {
			path := filepath.Join(root, name)
			doc, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			out, err := Rewrite(doc, func(steps []string) (string, bool) {
				var parts []string
				for _, st := range steps {
					t, ok := texts[st]
					if !ok {
						return "", false
					}
					parts = append(parts, t)
				}
				return strings.Join(parts, "\n\n"), true
			})
			if err == nil && !bytes.Equal(out, doc) {
				err = os.WriteFile(path, out, 0o644)
			}
			if err != nil && writeErr == nil {
				writeErr = fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	if _, err := Play(root, log, write); err != nil {
		return err
	}
	if writeErr != nil {
		return writeErr
	}
	if now, err := Sum(root); err == nil && now != sum {
		fmt.Fprintf(log, "transcripts: the inputs changed while the story played; the sum records them as they were when it began\n")
	}
	return os.WriteFile(filepath.Join(root, SumFile), []byte(SumText(sum)), 0o644)
}

var errNoMarkers = errors.New("no <!-- transcript: STEP --> markers")

// CheckMarkers checks that every marked block of doc names steps of the
// story, each step at most once.
func CheckMarkers(doc []byte) error {
	blocks, err := Blocks(doc)
	if err != nil {
		return err
	}
	if len(blocks) == 0 {
		return errNoMarkers
	}
	seen := map[string]bool{}
	for _, b := range blocks {
		for _, st := range b.Steps {
			if !slices.ContainsFunc(Story, func(s Step) bool { return s.Name == st }) {
				return fmt.Errorf("line %d: the story has no step %q", b.Line, st)
			}
			if seen[st] {
				return fmt.Errorf("line %d: step %q is shown twice", b.Line, st)
			}
			seen[st] = true
		}
	}
	return nil
}
