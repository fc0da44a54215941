package exindex

import (
	"fmt"
	"strconv"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// File is where a chapter's index is written, relative to the chapter.
const File = "testdata/exercises.txt"

// The index is plain text, one block per exercise, read top to bottom or
// found with grep ("exercise 3:", a mutant's name). Every block has the
// same fields, "none" for an empty one, so an exercise without a mutant
// or a scenario of its own shows. Lists carry their length: how many
// checks run an exercise's code is the first thing to ask of it.
const (
	width  = 100 // a line wraps past this column
	indent = 18  // where a field's value starts: past "  scenarios (29): "
)

// Text renders the index.
func (idx Index) Text() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# The exercises of %s: for each, what the five places that describe it say.\n"+
		"# Those stay the truth: the exercise markers in the reference (title, track, the\n"+
		"# functions its regions are the bodies of), the scenario headers (`# exercise: N`),\n"+
		"# testdata/blame.txt (the checks that run its code), testdata/checked-together.txt\n"+
		"# and testdata/mutants/ (a mutant's exercise holds the first line it changes).\n"+
		"# Generated from them by `make exercises` and by selftest -record; do not edit.\n", idx.Chapter)
	for _, e := range idx.Entries {
		fmt.Fprintf(&b, "\nexercise %d: %s\n", e.ID, e.Title)
		lines(&b, "track", []string{e.Track})
		functions(&b, e.Funcs)
		list(&b, "scenarios", e.Scenarios)
		list(&b, "checks", e.Checks)
		lines(&b, "together", group(e.Together))
		list(&b, "mutants", e.Mutants)
	}
	if len(idx.Unowned)+len(idx.Loose) > 0 {
		b.WriteString("\nUnder no exercise:\n")
	}
	if len(idx.Unowned) > 0 {
		list(&b, "mutants", idx.Unowned)
		b.WriteString(strings.Repeat(" ", indent) + "(each one's first changed line is outside every exercise region:\n" +
			strings.Repeat(" ", indent) + "selftest checks that one exercise fails, not which)\n")
	}
	for _, l := range idx.Loose {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	return []byte(b.String())
}

// group is a checked-together group on one line, "7 8 9", or nothing.
func group(ids []int) []string {
	if len(ids) == 0 {
		return nil
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return []string{strings.Join(s, " ")}
}

// functions writes the functions field: one line per file,
// "store.go: Store.Add, Store.Update", a long one going on two columns
// further in, so that each file starts a line of its own.
func functions(b *strings.Builder, funcs []exgen.Func) {
	head(b, "functions")
	if len(funcs) == 0 {
		b.WriteString("none\n")
		return
	}
	for i := 0; i < len(funcs); {
		var names []string
		file := funcs[i].File
		for ; i < len(funcs) && funcs[i].File == file; i++ {
			names = append(names, funcs[i].Name)
		}
		if len(names) > 0 && file != funcs[0].File {
			b.WriteString(strings.Repeat(" ", indent))
		}
		names[0] = file + ": " + names[0]
		run(b, names, indent+2)
	}
}

// head writes a field's label and pads it to the value column.
func head(b *strings.Builder, label string) {
	h := "  " + label + ":"
	b.WriteString(h + strings.Repeat(" ", max(1, indent-len(h))))
}

// lines writes a field with each item on a line of its own.
func lines(b *strings.Builder, label string, items []string) {
	head(b, label)
	if len(items) == 0 {
		b.WriteString("none\n")
		return
	}
	b.WriteString(strings.Join(items, "\n"+strings.Repeat(" ", indent)) + "\n")
}

// list writes "  label (count): a, b, c", wrapped at width.
func list(b *strings.Builder, label string, items []string) {
	head(b, fmt.Sprintf("%s (%d)", label, len(items)))
	if len(items) == 0 {
		b.WriteString("none\n")
		return
	}
	run(b, items, indent)
}

// run writes items joined by ", " from the value column on, wrapping
// before an item that would pass width; a wrapped line starts at column
// hang. It ends the line.
func run(b *strings.Builder, items []string, hang int) {
	col := indent
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		switch {
		case i == 0:
		case col+1+len(item) > width:
			b.WriteString("\n" + strings.Repeat(" ", hang))
			col = hang
		default:
			b.WriteString(" ")
			col++
		}
		b.WriteString(item)
		col += len(item)
	}
	b.WriteString("\n")
}
