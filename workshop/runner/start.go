package runner

import (
	"fmt"
	"strconv"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
)

// Start begins a chapter on the track you choose (TrackCore, TrackDeep or
// TrackBlank) before you read it: the core track's copy holds the code of
// the deep exercises, so a learner who means to write that code should
// choose before reading it. With no track it explains the three and asks
// (--yes takes core).
func (r *Runner) Start(chapter, track string) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("%s has no exercises yet. Next: read its doc, %s", c.Name, docOf(r.Root, c.Name))
	}
	if track == "" {
		if track, err = r.chooseTrack(c, list); err != nil {
			return err
		}
	}
	// Chosen just now, by answer or on the command line (start CH deep):
	// on a copy that holds nothing of yours there is no second question.
	r.picked = true
	defer func() { r.picked = false }()
	// While you read, compile what the chapter's tests import: the first
	// check's build then takes seconds, not minutes.
	if r.Warm {
		if started, err := progress.Warm(c, r.Race); err == nil && started {
			r.say("", fmt.Sprintf("While you read, what the tests of %s import compiles in the background, so that your first check takes seconds, not minutes. A check stops that build if it is still going, and keeps what it compiled.", c.Name))
			r.printf("\n")
		}
	}
	return r.takeTrack(c, track)
}

// chooseFirst asks for a chapter's track on the first check of a
// chapter you never started: no track chosen, and a copy that is still
// the generated one. Only a person at a terminal is asked; otherwise the
// check goes on with the core track and says how to choose.
func (r *Runner) chooseFirst(c chapters.Chapter) error {
	if _, chosen := LoadState(r.Root).Tracks[c.Name]; chosen || !isCoreCopy(c) {
		return nil
	}
	list, err := exgen.Exercises(c.Dir)
	if err != nil || len(list) == 0 {
		return err
	}
	if deepCount(list) == 0 || r.Yes || !r.interactive() {
		if deepCount(list) > 0 {
			r.say("", fmt.Sprintf("You have not chosen a track for %s, so this checks the core track. To choose one before you read on (this shows once): `%s core|deep|blank`.",
				c.Name, r.cmd("start", c.Number())))
			r.printf("\n")
		}
		return SetTrack(r.Root, c.Name, TrackCore)
	}
	track, err := r.chooseTrack(c, list)
	if err != nil {
		return err
	}
	r.picked, r.checking = true, true
	defer func() { r.picked, r.checking = false, false }()
	if err := r.takeTrack(c, track); err != nil {
		return err
	}
	r.printf("\n")
	return nil
}

// chooseTrack explains the three tracks of a chapter and asks which one
// you take; Enter (or --yes) is core.
func (r *Runner) chooseTrack(c chapters.Chapter, list []exgen.Exercise) (string, error) {
	deep := deepCount(list)
	if deep == 0 {
		r.say("", fmt.Sprintf("%s has only core exercises, so its track is core.", c.Name))
		return TrackCore, nil
	}
	r.say("", fmt.Sprintf("Choose a track for %s before you read %s (the core track's copy holds the code the deep track asks you to write):", c.Name, docOf(r.Root, c.Name)))
	core, all := functionCounts(c, list)
	r.say("  core   ", fmt.Sprintf("%d exercises, %s: the component's rules. Its locking, loops and lifecycles are written for you.", len(list)-deep, countOf(core, "function")))
	// The whole of it (all four trials of 2026-11-29 multiplied it out
	// themselves), as a budget for all of them: not "20 to 40 minutes
	// each", since they are uneven (trial W: 05's exercise 10 is two
	// one-line bodies, its exercise 8 the real job).
	parts := fmt.Sprintf("those %d parts as exercises too (from a few lines to a whole loop: about %s in all)", deep, hoursFor(deep*20, deep*40))
	if deep == 1 {
		parts = "that part as an exercise too (about 20 to 40 minutes)" // trial R read "those 1 parts"
	}
	r.say("  deep   ", fmt.Sprintf("%d exercises, %s: core, and %s.", len(list), countOf(all, "function"), parts))
	r.say("  blank  ", fmt.Sprintf("%d exercises stubbed at once, the same %s: the chapter from its types and doc comments, with no code of the exercises to read.", len(list), countOf(all, "function")))
	r.say("", fmt.Sprintf("You can switch later (`core %s`, `deep %s`, `blank %s`); each keeps a backup.", c.Number(), c.Number(), c.Number()))
	if r.Yes {
		r.printf("Which track? [core/deep/blank] core (--yes)\n")
		return TrackCore, nil
	}
	answer := strings.ToLower(r.ask("Which track? [core/deep/blank] (Enter: core) "))
	for _, t := range []string{TrackCore, TrackDeep, TrackBlank} {
		if answer == t || (answer != "" && strings.HasPrefix(t, answer)) {
			return t, nil
		}
	}
	if answer == "" {
		return TrackCore, nil
	}
	return "", fmt.Errorf("there is no track %q. Next: choose core, deep or blank:\n  %s", answer, r.cmd("start", c.Number(), "core"))
}

// takeTrack puts your copy of a chapter on a track.
func (r *Runner) takeTrack(c chapters.Chapter, track string) error {
	switch track {
	case TrackCore:
		return r.Core(c.Name)
	case TrackDeep:
		return r.Deep(c.Name)
	case TrackBlank:
		return r.Blank(c.Name)
	}
	return fmt.Errorf("there is no track %q. Next: choose core, deep or blank:\n  %s", track, r.cmd("start", c.Number(), "core"))
}

// hoursFor says a span of minutes the way a person plans it: "2 to 4
// hours", or "40 to 80 minutes" under two hours.
func hoursFor(lo, hi int) string {
	if hi < 120 {
		return fmt.Sprintf("%d to %d minutes", lo, hi)
	}
	return fmt.Sprintf("%s to %s hours", halfHours(lo), halfHours(hi))
}

// halfHours is minutes as hours, to the half hour: "3.5", "4".
func halfHours(minutes int) string {
	h := float64((minutes+15)/30) / 2
	return strconv.FormatFloat(h, 'f', -1, 64)
}

// functionCounts counts the functions whose bodies you write on the core
// track, and on the deep and blank tracks (all of the exercises'), so a
// track's size is known before you take it (trial Q took 04's blank track
// without knowing it meant about 80 functions).
func functionCounts(c chapters.Chapter, list []exgen.Exercise) (core, all int) {
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return 0, 0
	}
	for _, e := range list {
		parts, err := exgen.ExerciseParts(gen, e.ID)
		if err != nil {
			continue
		}
		for _, keys := range parts {
			all += len(keys)
			if e.Track != exgen.TrackDeep {
				core += len(keys)
			}
		}
	}
	return core, all
}

func deepCount(list []exgen.Exercise) int {
	n := 0
	for _, e := range list {
		if e.Track == exgen.TrackDeep {
			n++
		}
	}
	return n
}
