// Package todo holds the one thing a generated exercise copy needs from the
// harness: the panic that marks an exercise you have not done yet.
package todo

import "fmt"

// NotDone is the panic value of an unfinished exercise. The scenario runner
// recovers it and turns it into a report that names the exercise and its
// hint, so an unfinished exercise reads as a to-do, not as a crash. The
// hint comes from the reference's markers, not from here: one exercise
// has one hint, however many functions it stubs.
type NotDone struct {
	Chapter  string // "03-indexer"
	Exercise int    // 1, 2, ...
	Func     string // the stubbed function, "threadSafeMap.updateIndices"
}

// Exercise returns the panic value for exercise n of chapter, raised in
// the stub of function fn.
func Exercise(chapter string, n int, fn string) *NotDone {
	return &NotDone{Chapter: chapter, Exercise: n, Func: fn}
}

func (e *NotDone) Error() string {
	return fmt.Sprintf("%s exercise %d is not done yet", e.Chapter, e.Exercise)
}
