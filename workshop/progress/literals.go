package progress

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// A scenario demands many exact texts (error messages, reasons, the
// Status kube-apiserver sends), and your code writes them as string
// literals. When what your copy printed holds a piece of text that the
// recorded run does not, and that piece is a literal of your code that the
// reference's code does not have, the function holding it wrote the
// divergence: no swap of exercises and no rebuild is needed to say whose
// code it is, and the place can be shown.

// minFragment is the shortest literal text taken as evidence: shorter
// ones ("ns", ": ", "%s/%s") are found everywhere.
const minFragment = 8

// verb splits a format string into the text around its verbs.
var verb = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)

// literal is one piece of literal text of a function, or a whole format
// string with its verbs: "index %q does not exist" printed `index "x"
// does not exist`, whose pieces alone ("does not exist") the reference's
// "Index with name %s does not exist" has too.
type literal struct {
	text   string
	format *regexp.Regexp // for a format string: its text with any text at each verb
	// whole, for a piece of a format string, is the format's pattern: a
	// piece is evidence only where the whole format printed it.
	whole *regexp.Regexp
	fn    string // the function's key ("Server.create")
	file  string // the file's base name
	line  int
	// instead is the reference's format string in the same function that
	// differs from this one in its verbs alone ("index %q" for "index %s"),
	// when the two printed what diverged.
	instead string
}

// in reports whether the literal's text is in s: the piece, or what the
// format string printed.
func (l literal) in(s string) bool {
	if l.format != nil {
		return l.format.MatchString(s)
	}
	return strings.Contains(s, l.text)
}

// diverged reads, from a scenario step's report, what was recorded and
// what your copy printed: the Recorded and Got lines, or the lines a trace
// diff takes away and adds. A plain test's report has neither: all of it
// is what your copy made the test print.
func diverged(report string) (recorded, got string) {
	var r, g strings.Builder
	for _, line := range strings.Split(report, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "Recorded:"):
			r.WriteString(strings.TrimPrefix(t, "Recorded:") + "\n")
		case strings.HasPrefix(t, "Got:"):
			g.WriteString(strings.TrimPrefix(t, "Got:") + "\n")
		case strings.HasPrefix(line, "    -"):
			r.WriteString(line[5:] + "\n")
		case strings.HasPrefix(line, "    +"):
			g.WriteString(line[5:] + "\n")
		}
	}
	if r.Len() == 0 && g.Len() == 0 {
		return "", report
	}
	return r.String(), g.String()
}

// textOwners finds the literals of your code that printed text the
// recorded run lacks (see above). It returns them, at most one per
// function, with the exercises of their functions.
func (k *code) textOwners(report string) ([]literal, []int) {
	recorded, got := diverged(report)
	if got == "" {
		return nil, nil
	}
	k.literalsOnce.Do(k.readLiterals)
	yours, reference := k.yourLiterals, k.refTexts
	var found []literal
	var ids []int
	seen := map[string]bool{}
	plain := recorded == "" // all of a plain test's output counts as got
	for _, l := range yours {
		if reference[l.text] || seen[l.fn] || !l.in(got) {
			continue
		}
		if l.whole != nil && !l.whole.MatchString(got) {
			// The piece is in a line its format did not print (trial
			// L2's trace line "update status: %d available": its
			// "available" was found in the scenario's own output, and
			// blamed updateStatus for a missing ownership check).
			continue
		}
		if l.in(recorded) {
			// Both texts fit the format; the verbs may still be what
			// differs (trial J's %s where the recording quotes, %q).
			ref := k.verbsDiffer(l, recorded, got)
			if ref == "" {
				continue
			}
			l.instead = ref
		}
		if k.referenceCouldPrint(l, got) {
			// A line the reference's own format prints too is no
			// evidence: trial L2's "replicas %d→%d", where the reference
			// writes "replicas %s→%d", blamed a correct exercise for every
			// failure of TestDifferential (a plain test: all its output
			// counts), and a trace line "create deployment %s/%s" fit a
			// step's own "create deployment demo/web replicas=1 ...".
			continue
		}
		if plain && !strings.ContainsAny(l.text, " \t") {
			// One word ("NotOlderThan", where the reference names
			// metav1's constant) is in any request that carries it: in
			// the whole output of a plain test it is no evidence (the
			// 07 trial's validate was blamed for three other bugs).
			continue
		}
		id := k.funcs[l.fn]
		if id == 0 {
			continue
		}
		seen[l.fn] = true
		found = append(found, l)
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].file+found[i].fn < found[j].file+found[j].fn })
	sort.Ints(ids)
	return found, ids
}

// referenceCouldPrint reports whether every line of got that holds l's
// text is one a format string of the reference prints as well, each verb
// printing what it can (strictFormat: a %q where yours has %s still
// tells the two apart). A text that spans lines is no line's: false.
func (k *code) referenceCouldPrint(l literal, got string) bool {
	lines := 0
	for _, line := range strings.Split(got, "\n") {
		if !l.in(line) {
			continue
		}
		lines++
		if !slices.ContainsFunc(k.refPrints, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
			return false
		}
	}
	return lines > 0
}

// readLiterals reads the literals of your files of the chapter, and the
// texts of the reference's (the generated copy with every exercise done).
func (k *code) readLiterals() {
	k.refTexts = map[string]bool{}
	k.refFormats = map[string][]string{}
	for name, src := range k.done {
		if filepath.Ext(name) != ".go" {
			continue
		}
		for _, l := range literals(src) {
			k.refTexts[l.text] = true
			if l.format != nil {
				k.refFormats[l.fn] = append(k.refFormats[l.fn], l.text)
				if re := strictFormat(l.text); re != nil {
					k.refPrints = append(k.refPrints, re)
				}
			}
		}
	}
	for name, src := range k.s.files {
		if src == nil || filepath.Dir(name) != "." || filepath.Ext(name) != ".go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, l := range literals(src) {
			l.file = name
			k.yourLiterals = append(k.yourLiterals, l)
		}
	}
}

// literals lists the literal text in each function of src: each string
// literal with verbs whole, as a format (when its text outside the verbs
// is minFragment bytes or more), then its pieces between the verbs, of
// minFragment bytes or more. The whole format comes first: it is the
// better evidence.
func literals(src []byte) []literal {
	fset, fns := funcDecls(src)
	var out []literal
	for _, fd := range fns {
		key := exgen.FuncKey(fd)
		read := comparedLiterals(fd.Body)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || read[lit] {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			line := fset.Position(lit.Pos()).Line
			pieces := verb.Split(text, -1)
			var whole *regexp.Regexp
			if len(pieces) > 1 && len(strings.Join(pieces, "")) >= minFragment {
				quoted := make([]string, len(pieces))
				for i, p := range pieces {
					quoted[i] = regexp.QuoteMeta(p)
				}
				if re, err := regexp.Compile(strings.Join(quoted, ".*?")); err == nil {
					out = append(out, literal{text: text, format: re, fn: key, line: line})
					whole = re
				}
			}
			for _, piece := range pieces {
				if piece = strings.TrimSpace(piece); len(piece) >= minFragment {
					out = append(out, literal{text: piece, whole: whole, fn: key, line: line})
				}
			}
			return true
		})
	}
	return out
}

// verbsDiffer returns the reference's format string in l's function that
// has l's text between its verbs but other verbs, when what each verb
// prints tells the two apart: yours fits a line your copy printed, the
// reference's a line the recording holds, and one of them does not fit
// the other's line. "" when there is none. A %v for a %s prints the same,
// and a line that diverged elsewhere is no evidence against it.
func (k *code) verbsDiffer(l literal, recorded, got string) string {
	pieces := verb.Split(l.text, -1)
	for _, ref := range k.refFormats[l.fn] {
		if !slices.Equal(verb.Split(ref, -1), pieces) {
			continue
		}
		yours, theirs := strictFormat(l.text), strictFormat(ref)
		if yours == nil || theirs == nil {
			continue
		}
		if yours.MatchString(got) && theirs.MatchString(recorded) && (!yours.MatchString(recorded) || !theirs.MatchString(got)) {
			return ref
		}
	}
	return ""
}

// strictFormat is a format string as a pattern of what it prints, each
// verb as narrowly as it prints: %q a quoted string, %d a number, %t a
// bool, any other verb any text on the line.
func strictFormat(format string) *regexp.Regexp {
	var b strings.Builder
	last := 0
	for _, at := range verb.FindAllStringIndex(format, -1) {
		b.WriteString(regexp.QuoteMeta(format[last:at[0]]))
		switch v := format[at[0]:at[1]]; v[len(v)-1] {
		case 'q':
			b.WriteString(`"(?:[^"\\]|\\.)*"`)
		case 'd':
			b.WriteString(`[-+]?\d+`)
		case 't':
			b.WriteString(`(?:true|false)`)
		case '%':
			b.WriteString(`%`)
		default:
			b.WriteString(`.*?`)
		}
		last = at[1]
	}
	b.WriteString(regexp.QuoteMeta(format[last:]))
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// comparedLiterals are the string literals body only compares with (==,
// !=, a switch's case): read, never written. A query value your code
// checks, "NotOlderThan" where the reference compares with
// metav1.ResourceVersionMatchNotOlderThan, is in the trace of any request
// that carries it, and must not read as a text you wrote (the 07 trial's
// replay bug was put on its correct validate).
func comparedLiterals(body *ast.BlockStmt) map[*ast.BasicLit]bool {
	read := map[*ast.BasicLit]bool{}
	mark := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok {
			read[lit] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				mark(n.X)
				mark(n.Y)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				mark(e)
			}
		}
		return true
	})
	return read
}

// wroteIt says, for a person, where the text that diverged was written.
func (k *code) wroteIt(found []literal) string {
	var b strings.Builder
	for i, l := range found {
		label := "Written:  "
		if i > 0 {
			label = "          "
		}
		where := k.s.translate(filepath.Join(k.s.dir, l.file))
		if l.instead != "" {
			fmt.Fprintf(&b, "%sby %s (exercise %d), %s:%d:\n          %q, where the reference writes\n          %q: its verbs print the recorded text\n", label, l.fn, k.funcs[l.fn], where, l.line, l.text, l.instead)
			continue
		}
		fmt.Fprintf(&b, "%sby %s (exercise %d), %s:%d:\n          %q, a text the reference never writes\n", label, l.fn, k.funcs[l.fn], where, l.line, l.text)
	}
	return b.String()
}
