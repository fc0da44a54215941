package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Command is one command of a chapter's scenario files, with the words
// that document it beside the code that runs it, as etcd raft's
// interaction_env_handler_*.go files keep theirs: a command without usage
// text cannot run, so the chapter doc's reference (Table.Doc) is never
// missing one.
type Command[D any] struct {
	Name string
	// Usage is the synopsis on its first line (the name, then its
	// arguments: [optional], a|b for a choice, UPPER for a value), then
	// what the command does and what it prints.
	Usage string
	// Example is a step that uses it: the command line, then any input.
	Example string
	// Run plays one step on d, the driver of the file, and returns the
	// step's output.
	Run func(d D, t testing.TB, td *datadriven.TestData) string
}

// Table is a chapter's commands, in the order its doc lists them. A
// chapter builds it from one slice per command family (a
// scenario_<family>_test.go each).
type Table[D any] struct {
	commands []Command[D]
	err      error // a duplicate or undocumented command, reported on use
}

// NewTable joins the families into one table.
func NewTable[D any](families ...[]Command[D]) Table[D] {
	var tb Table[D]
	for _, family := range families {
		for _, c := range family {
			switch {
			case slices.ContainsFunc(tb.commands, func(o Command[D]) bool { return o.Name == c.Name }):
				tb.err = fmt.Errorf("scenario command %q is in the table twice", c.Name)
			case strings.TrimSpace(c.Usage) == "":
				tb.err = fmt.Errorf("scenario command %q has no usage text: write what it takes and what it prints", c.Name)
			case strings.Fields(c.Usage)[0] != c.Name:
				tb.err = fmt.Errorf("scenario command %q: its usage must start with its synopsis, %q first", c.Name, c.Name)
			}
			tb.commands = append(tb.commands, c)
		}
	}
	return tb
}

// Run plays one step with the command it names. An unknown command is
// the scenario author's mistake, reported at the step.
func (tb Table[D]) Run(d D, t testing.TB, td *datadriven.TestData) string {
	if tb.err != nil {
		td.Fatalf(t, "%v", tb.err)
	}
	i := slices.IndexFunc(tb.commands, func(c Command[D]) bool { return c.Name == td.Cmd })
	if i < 0 {
		td.Fatalf(t, "unknown command %q (the commands: %s)", td.Cmd, strings.Join(tb.Names(), ", "))
	}
	return tb.commands[i].Run(d, t, td)
}

// Driver plays each step of a file on d with the table's commands: the
// driver of a chapter whose steps need nothing more.
func (tb Table[D]) Driver(d D) Driver {
	return func(t testing.TB, td *datadriven.TestData) string { return tb.Run(d, t, td) }
}

// Has reports whether the table has a command named name.
func (tb Table[D]) Has(name string) bool {
	return slices.ContainsFunc(tb.commands, func(c Command[D]) bool { return c.Name == name })
}

// Names lists the commands, in table order.
func (tb Table[D]) Names() []string {
	names := make([]string, len(tb.commands))
	for i, c := range tb.commands {
		names[i] = c.Name
	}
	return names
}

// Err is what is wrong with the table: a command twice, or one without
// usage text.
func (tb Table[D]) Err() error { return tb.err }

// Doc is the table's reference, as the chapter doc shows it: each
// command's synopsis, what it does indented under it, then its example.
func (tb Table[D]) Doc() string {
	var b strings.Builder
	for i, c := range tb.commands {
		if i > 0 {
			b.WriteString("\n")
		}
		synopsis, rest, _ := strings.Cut(strings.TrimSpace(c.Usage), "\n")
		b.WriteString(synopsis + "\n")
		for _, line := range strings.Split(rest, "\n") {
			writeIndented(&b, "    ", line)
		}
		if c.Example != "" {
			b.WriteString("    example:\n")
			for _, line := range strings.Split(strings.TrimSpace(c.Example), "\n") {
				writeIndented(&b, "        ", line)
			}
		}
	}
	return b.String()
}

// writeIndented writes one line under indent, its own indentation kept;
// a blank line is left out.
func writeIndented(b *strings.Builder, indent, line string) {
	if line = strings.TrimRight(line, " \t"); line == "" {
		return
	}
	b.WriteString(indent + line + "\n")
}
