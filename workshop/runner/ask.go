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
		return ""
	}
	// One buffered reader per input: a fresh reader per question would
	// swallow the answers to the next questions along with this one.
	if r.answers == nil || r.answersFrom != r.In {
		r.answers, r.answersFrom = bufio.NewReader(r.In), r.In
	}
	line, _ := r.answers.ReadString('\n')
	answer := strings.TrimSpace(line)
	if f, ok := r.In.(*os.File); !ok || !IsTerminal(f) {
		r.printf("%s\n", answer) // a terminal echoes it; a pipe does not
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
