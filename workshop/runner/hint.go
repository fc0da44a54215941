package runner

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/zhdocs"
)

// Hint prints an exercise's hint. Asked again, it prints the deeper hint
// too: how many times you asked is kept in the state file.
func (r *Runner) Hint(chapter string, id int) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	ex, err := exercise(c, id)
	if err != nil {
		return err
	}
	s := LoadState(r.Root)
	level := s.Hints[hintKey(c.Name, id)] + 1
	if level > 2 {
		level = 2
	}
	s.Hints[hintKey(c.Name, id)] = level
	if err := s.Save(r.Root); err != nil {
		return err
	}
	r.say("", fmt.Sprintf("Exercise %d of %s: %s (%s)", id, c.Name, strings.TrimSuffix(ex.Title, "."), exerciseFile(c, ex)))
	r.printf("\n")
	if funcs := exerciseFuncs(c, id); funcs != "" {
		r.say("Write:  ", funcs)
	}
	r.sayHint("Hint:   ", c.Name, id, ex.Hint)
	if level == 1 {
		r.printf("\n")
		r.next(fmt.Sprintf("Next: edit %s, then check it:", exerciseFile(c, ex)), r.checkCmd(c, id))
		r.next("Still stuck? Ask again for a deeper hint:", r.cmd("hint", c.Number(), fmt.Sprint(id)))
		return nil
	}
	if ex.Deeper != "" {
		r.say("Deeper: ", ex.Deeper)
	} else {
		r.say("Deeper: ", "This exercise has no deeper hint. Read its scenarios in "+c.Name+"/testdata/scenarios.")
	}
	r.printf("\n")
	r.next(fmt.Sprintf("Next: edit %s, then check it:", exerciseFile(c, ex)), r.checkCmd(c, id))
	r.next("Once it passes, this shows the reference (or, if you are still stuck after this hint, it does on the second asking):",
		r.cmd("solution", c.Number(), fmt.Sprint(id)))
	return nil
}

// Solution prints the reference code of an exercise once your copy passes
// it. Before that it gives the hint instead, unless you are truly stuck:
// you have seen the deeper hint and ask for the solution a second time.
func (r *Runner) Solution(chapter string, id int) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	ex, err := exercise(c, id)
	if err != nil {
		return err
	}
	s := LoadState(r.Root)
	key := hintKey(c.Name, id)
	passes := s.PassedOn[key] != "" && s.PassedOn[key] == fingerprint(c)
	if !passes {
		x, err := r.checkOnly(c, id) // only this exercise's checks decide
		if err != nil {
			return err
		}
		e, _ := x.find(id)
		passes = x.res.Build == "" && e.Status == progress.Pass
	}
	stuck := s.Hints[key] >= 2
	if stuck && !s.SolutionAsked[key] && !passes {
		s.SolutionAsked[key] = true
		if err := s.Save(r.Root); err != nil {
			return err
		}
		r.say("", fmt.Sprintf("Exercise %d of %s does not pass yet, and you have seen both hints. The solution is the reference code: reading it now gives the answer away, so try once more with the deeper hint in mind:", id, c.Name))
		r.printf("\n")
		r.say("Deeper: ", ex.Deeper)
		r.printf("\n")
		r.next("If you are still stuck, ask once more and it is shown:", r.cmd("solution", c.Number(), fmt.Sprint(id)))
		return ErrNotAllPass
	}
	if !stuck && !passes {
		r.say("", fmt.Sprintf("Exercise %d of %s does not pass yet, so its solution stays hidden.", id, c.Name))
		r.printf("\n")
		r.sayHint("Hint: ", c.Name, id, ex.Hint)
		r.printf("\n")
		r.next(fmt.Sprintf("Next: edit %s, then check it, or ask for a deeper hint:", exerciseFile(c, ex)), r.checkCmd(c, id), r.cmd("hint", c.Number(), fmt.Sprint(id)))
		return ErrNotAllPass
	}
	files, err := exgen.GoFiles(c.Dir)
	if err != nil {
		return err
	}
	var shown []string
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(c.Dir, name))
		if err != nil {
			return err
		}
		funcs, err := exgen.ReferenceFuncs(src, id)
		if err != nil {
			return err
		}
		for _, fn := range funcs {
			shown = append(shown, fmt.Sprintf("// %s/%s\n%s", c.Name, name, fn))
		}
	}
	if passes {
		r.say("", fmt.Sprintf("Exercise %d of %s passes, so here is the reference to compare with your %s:", id, c.Name, exerciseFile(c, ex)))
	} else {
		r.say("", fmt.Sprintf("Here is the reference for exercise %d of %s, to unstick your %s:", id, c.Name, exerciseFile(c, ex)))
	}
	for _, fn := range shown {
		r.printf("\n%s\n", strings.ReplaceAll(fn, "\t", "    "))
	}
	r.printf("\n")
	r.next("Next: pick the next exercise:", r.cmd("status"))
	return nil
}

// exerciseFuncs lists, file by file, the functions exercise id has you
// write: "codec.go: encodeStored, decodeStored; server.go: create". An
// exercise may span several files, and its hint names only the first.
func exerciseFuncs(c chapters.Chapter, id int) string {
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return ""
	}
	parts, err := exgen.ExerciseParts(gen, id)
	if err != nil {
		return ""
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		out = append(out, filepath.Base(name)+": "+strings.Join(parts[name], ", "))
	}
	return strings.Join(out, "; ")
}

// sayHint prints an exercise's hint after label ("Hint: "), and for a
// reader of Chinese its Chinese hint under it, aligned with it ("提示: ").
func (r *Runner) sayHint(label, chapter string, id int, hint string) {
	r.say(label, hint)
	if zh := chineseHint(r.Root, chapter, id); zh != "" {
		fmt.Fprintln(r.Out, wrapWide(strings.Replace(label, "Hint:", "提示:", 1), zh, Width))
	}
}

// chineseHint is an exercise's hint in Chinese, for a reader of Chinese,
// from the exercise table of docs/zh/NN-name.md. The exercise markers stay
// the hints' one source: the table is their translation, and zhdocs gives
// it only while it translates the English table as it is now.
func chineseHint(root, chapter string, id int) string {
	if !readsChinese() {
		return ""
	}
	return zhdocs.ExerciseHints(root, chapter)[id]
}

// readsChinese says whether the reader asked for Chinese:
// WALKTHROUGH_LANG, or else LC_ALL, LC_MESSAGES or LANG, starts with "zh".
func readsChinese() bool {
	for _, v := range []string{"WALKTHROUGH_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if lang := os.Getenv(v); lang != "" {
			return strings.HasPrefix(strings.ToLower(lang), "zh")
		}
	}
	return false
}

// docOf is the path of a chapter's doc for this reader: its Chinese twin
// in docs/zh/ for a reader of Chinese, where there is one.
func docOf(root, chapter string) string {
	if readsChinese() {
		zh := filepath.Join("docs", "zh", chapter+".md")
		if _, err := os.Stat(filepath.Join(root, zh)); err == nil {
			return zh
		}
	}
	return filepath.Join("docs", chapter+".md")
}

// wrapWide is Wrap for text with wide (CJK) characters, which take two
// columns and may break anywhere; a run of other non-space characters
// stays in one piece.
func wrapWide(label, text string, width int) string {
	cols := func(s string) int {
		n := 0
		for _, r := range s {
			if r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe4f) || (r >= 0xff00 && r <= 0xff60) || (r >= 0xffe0 && r <= 0xffe6)) {
				n += 2
			} else {
				n++
			}
		}
		return n
	}
	pad := strings.Repeat(" ", cols(label))
	// pieces: a space, one wide character, or a run of other characters.
	var pieces []string
	joinable := false // the last piece is a run that the next character may extend
	for _, r := range text {
		wide := cols(string(r)) == 2
		if r != ' ' && !wide && joinable {
			pieces[len(pieces)-1] += string(r)
			continue
		}
		pieces = append(pieces, string(r))
		joinable = r != ' ' && !wide
	}
	// A line never starts with closing punctuation: the character before
	// it moves down with it.
	closing := func(p string) bool {
		return strings.ContainsAny(p, "，。、；：！？）」』》") && cols(p) == 2
	}
	var lines []string
	line, used := label, cols(label)
	for i, p := range pieces {
		if used+cols(p) > width && used > len(pad) {
			carry := ""
			if closing(p) && i > 0 && cols(pieces[i-1]) == 2 && strings.HasSuffix(line, pieces[i-1]) {
				carry = pieces[i-1]
				line = strings.TrimSuffix(line, carry)
			}
			lines = append(lines, strings.TrimRight(line, " "))
			line, used = pad+carry, len(pad)+cols(carry)
			if p == " " {
				continue
			}
		}
		line += p
		used += cols(p)
	}
	return strings.Join(append(lines, strings.TrimRight(line, " ")), "\n")
}
