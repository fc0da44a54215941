package scenario

import (
	"fmt"
	"path/filepath"

	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/todo"
)

// exercisesOf reads the exercises (titles, hints) from the markers of a
// chapter's reference: the one place a hint is written. chapter is the
// directory of the chapter under test; name, when set, is the chapter a
// stub's panic came from, which with --mine may be an earlier one beside
// it.
func exercisesOf(chapter, name string) map[int]exgen.Exercise {
	dir := chapter
	if name != "" && name != filepath.Base(chapter) {
		dir = filepath.Join(filepath.Dir(chapter), name)
	}
	list, _ := exgen.Exercises(dir)
	byID := map[int]exgen.Exercise{}
	for _, ex := range list {
		byID[ex.ID] = ex
	}
	return byID
}

// notDoneHint is the hint lines for an unfinished exercise a stress test
// met: its title and hint, from the markers.
func notDoneHint(nd *todo.NotDone) string {
	chapter, err := ChapterDir()
	if err != nil {
		return ""
	}
	ex, ok := exercisesOf(chapter, nd.Chapter)[nd.Exercise]
	if !ok {
		return ""
	}
	return fmt.Sprintf("\n  Exercise %d (%s): %s\n  Hint:     %s", ex.ID, ex.File, ex.Title, wrap(ex.Hint, "            "))
}
