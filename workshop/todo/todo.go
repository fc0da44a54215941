// Package todo holds the one thing a generated exercise copy needs from the
// harness: the panic that marks an exercise you have not done yet.
package todo

import "fmt"

// NotDone is the panic value of an unfinished exercise. The scenario runner
// recovers it and turns it into a report that names the exercise and its
// hint, so an unfinished exercise reads as a to-do, not as a crash.
type NotDone struct {
	Chapter  string // "03-indexer"
	Exercise int    // 1, 2, ...
	Hint     string
}

// Exercise returns the panic value for exercise n of chapter.
func Exercise(chapter string, n int, hint string) *NotDone {
	return &NotDone{Chapter: chapter, Exercise: n, Hint: hint}
}

func (e *NotDone) Error() string {
	return fmt.Sprintf("%s exercise %d is not done yet", e.Chapter, e.Exercise)
}
