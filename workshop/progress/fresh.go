package progress

import (
	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// Fresh is the result of a chapter none of whose exercises on your track
// is begun, without building it: each is not started, waiting for the
// first earlier one its checks need, as a check would find (status need
// not build six chapters you have not opened to say so). offTrack is
// Options.OffTrack.
func Fresh(c chapters.Chapter, offTrack func(int) bool) (*Chapter, error) {
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil, err
	}
	blame, err := LoadBlame(c.Dir)
	if err != nil {
		return nil, err
	}
	tagged, err := taggedByBlame(c.Dir, blame)
	if err != nil {
		return nil, err
	}
	out := &Chapter{Chapter: c}
	failed := map[string]bool{}
	for _, ex := range exercises {
		out.Exercises = append(out.Exercises, Exercise{Exercise: ex, Status: NotStarted, tests: tagged[ex.ID]})
		for _, t := range tagged[ex.ID] {
			failed[t] = false // every check runs a stub, and fails
		}
	}
	onTrack := func(id int) bool { return offTrack == nil || !offTrack(id) }
	for i, e := range out.Exercises {
		if !onTrack(e.ID) {
			out.Exercises[i].Status = Pass // written for you
		}
	}
	blameBlockers(c.Name, out.Exercises, blame, failed, onTrack)
	return out, nil
}
