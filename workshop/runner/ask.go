package runner

import (
	"bufio"
	"os"
	"strings"
)

// confirm asks a yes-or-no question; only "y" or "yes" is yes. --yes
// answers it, and says so.
func (r *Runner) confirm(question string) bool {
	if r.Yes {
		r.printf("%sy (--yes)\n", question)
		return true
	}
	answer := strings.ToLower(r.ask(question))
	return answer == "y" || answer == "yes"
}

// ask prints a question and reads one line of answer, trimmed; "" when
// there is no input. Off a terminal the answer is echoed, so a transcript
// shows it as a terminal would.
func (r *Runner) ask(question string) string {
	r.printf("%s", question)
	if r.In == nil {
		r.printf("\n")
		r.noAnswer = true
		return ""
	}
	// One buffered reader per input: a fresh reader per question would
	// swallow the answers to the next questions along with this one.
	if r.answers == nil || r.answersFrom != r.In {
		r.answers, r.answersFrom = bufio.NewReader(r.In), r.In
	}
	line, err := r.answers.ReadString('\n')
	answer := strings.TrimSpace(line)
	r.noAnswer = answer == "" && err != nil
	if f, ok := r.In.(*os.File); !ok || !IsTerminal(f) || err != nil {
		// A terminal echoes the answer and its newline; a pipe does not,
		// nor does a terminal at its end (Ctrl-D, or none there: trial Y
		// read the next sentence on the question's line).
		r.printf("%s\n", answer)
	}
	return answer
}

// interactive reports whether the runner may ask a question nobody
// asked for (the track, on a first check): only when a person is there to
// answer it.
func (r *Runner) interactive() bool {
	if r.Terminal {
		return true
	}
	f, ok := r.In.(*os.File)
	return ok && IsTerminal(f)
}

// declined says nothing changed after a question answered no, and, when
// no answer came at all (input closed, as in a script), how to answer yes
// without one: the same command with --yes.
func (r *Runner) declined(words ...string) {
	if !r.noAnswer {
		r.say("", "Nothing changed.")
		return
	}
	r.say("", "Nothing changed: no answer came (the input is closed), so the answer was no.")
	r.next("To answer yes without being asked, add --yes:", Cmd+" "+strings.Join(words, " ")+" --yes")
}
