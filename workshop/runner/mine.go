package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// MineOverlay returns the go build overlay that runs chapter c on your own
// copies of the chapters in deps: each dep's reference files are replaced
// by the files of the same name in its exercise/ directory. A reference
// file your copy lacks is left out of the build; a file only your copy has
// is added. Your copy is the same package under the same name, so whatever
// imports the dep's reference package compiles against your code instead.
// Paths are relative to c's directory, as gotest.Run wants them.
func MineOverlay(c chapters.Chapter, deps []chapters.Chapter) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, d := range deps {
		ref, err := exgen.GoFiles(d.Dir)
		if err != nil {
			return nil, err
		}
		mine, err := exgen.GoFiles(filepath.Join(d.Dir, exgen.ExerciseDir))
		if err != nil {
			return nil, err
		}
		rel := func(name string) (string, error) { return filepath.Rel(c.Dir, filepath.Join(d.Dir, name)) }
		for _, name := range ref {
			path, err := rel(name)
			if err != nil {
				return nil, err
			}
			files[path] = nil
		}
		for _, name := range mine {
			data, err := os.ReadFile(filepath.Join(d.Dir, exgen.ExerciseDir, name))
			if err != nil {
				return nil, err
			}
			path, err := rel(name)
			if err != nil {
				return nil, err
			}
			files[path] = data
		}
	}
	return files, nil
}

// mineChoice is what --mine (and the demo) builds a chapter on: your copy
// of each earlier chapter whose exercises all pass in your copy, and the
// reference of the others, each with how far you are. An unfinished copy
// is left out because a step that reached one of its stubs would stop
// there and judge nothing of the chapter you asked about.
type mineChoice struct {
	yours []chapters.Chapter
	ref   []refChapter
}

// refChapter is an earlier chapter a run takes the reference of, and how
// far you are in it ("3 of 10 exercises pass").
type refChapter struct{ name, progress string }

// chooseMine checks each of parts on its own (on the reference of the
// chapters it builds on) and splits them into yours and the reference's.
func (r *Runner) chooseMine(parts []chapters.Chapter) mineChoice {
	var choice mineChoice
	for _, p := range parts {
		if isCoreCopy(p) {
			choice.ref = append(choice.ref, refChapter{p.Name, "not started"})
			continue
		}
		x, err := r.plainCheck(p)
		if err == nil && x.res != nil && x.res.Build == "" && x.total() > 0 && x.done() == x.total() {
			choice.yours = append(choice.yours, p)
			continue
		}
		progress := "not every exercise passes yet"
		if err == nil && x.res != nil && x.res.Build == "" {
			progress = fmt.Sprintf("%d of %d exercises pass", x.done(), x.total())
		}
		choice.ref = append(choice.ref, refChapter{p.Name, progress})
	}
	return choice
}

// empty: the chapter builds on no earlier chapter.
func (m mineChoice) empty() bool { return len(m.yours)+len(m.ref) == 0 }

// yourNames names the chapters that are yours.
func (m mineChoice) yourNames() []string {
	var names []string
	for _, c := range m.yours {
		names = append(names, c.Name)
	}
	return names
}

// refNames names the chapters that are the reference's, with how far you
// are in each when withProgress.
func (m mineChoice) refNames(withProgress bool) []string {
	var names []string
	for _, c := range m.ref {
		if withProgress {
			names = append(names, fmt.Sprintf("%s (%s)", c.name, c.progress))
		} else {
			names = append(names, c.name)
		}
	}
	return names
}

// say tells which chapters are yours in this run and which the
// reference's.
func (m mineChoice) say(r *Runner) {
	if yours := m.yourNames(); len(yours) > 0 {
		r.say("Yours: ", strings.Join(yours, ", ")+".")
	}
	if len(m.ref) > 0 {
		r.say("Reference: ", strings.Join(m.refNames(true), ", ")+". Your copy of a chapter stands in for its reference once every exercise of it passes.")
	}
}

// short is the choice in one line, for status: "on your 03-indexer; on
// the reference of 01-listwatch, 02-deltafifo".
func (m mineChoice) short() string {
	var parts []string
	if yours := m.yourNames(); len(yours) > 0 {
		parts = append(parts, "on your "+strings.Join(yours, ", "))
	}
	if len(m.ref) > 0 {
		parts = append(parts, "on the reference of "+strings.Join(m.refNames(false), ", "))
	}
	return strings.Join(parts, "; ")
}

// plainChecks remembers, for one command, each chapter checked on the
// reference of the chapters before it: status --mine asks for
// 03-indexer's on behalf of four later chapters.
type plainChecks struct {
	mu   sync.Mutex
	done map[string]*plainCheck
}

type plainCheck struct {
	once sync.Once
	x    *result
	err  error
}

// plainCheck checks c without --mine, once per command.
func (r *Runner) plainCheck(c chapters.Chapter) (*result, error) {
	plain := *r
	plain.Mine, plain.reuse = false, true
	if r.plain == nil {
		return plain.check(c)
	}
	r.plain.mu.Lock()
	if r.plain.done == nil {
		r.plain.done = map[string]*plainCheck{}
	}
	p := r.plain.done[c.Name]
	if p == nil {
		p = &plainCheck{}
		r.plain.done[c.Name] = p
	}
	r.plain.mu.Unlock()
	p.once.Do(func() { p.x, p.err = plain.check(c) })
	return p.x, p.err
}
