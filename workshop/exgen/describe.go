package exgen

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"strings"
)

// A stub says what its own function does, in one line: the first sentence
// of the function's doc comment. The exercise's hint is not repeated in
// every stub of the exercise; `workshop hint NN N` and the failure report
// give it, from the markers.

// maxWhat is how long a stub's line may grow before it is cut at a
// clause: one line of a comment, read at a glance.
const maxWhat = 100

// stubText is what the stub of one region says.
type stubText struct {
	fn   string // the function's name, "Store.Update": the panic's short text
	what string // the comment line, without "// "
	// whole is the doc comment's first sentence uncut, for the runner's
	// Function: line, which wraps it (trial I read "returns once all of
	// its…"); what when the function has no doc comment.
	whole string
}

// describeStubs returns, for each region of f keyed by its begin line,
// the function it is the body of and the one line its stub says.
func describeStubs(f sourceFile, exercises map[int]*Exercise) (map[int]stubText, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.name, strings.Join(f.lines, "\n"), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	out := map[int]stubText{}
	for _, r := range f.regions {
		fn := enclosingFunc(fset, file, r.begin+1)
		if fn == nil {
			return nil, fmt.Errorf("%s:%d: an exercise region must be a whole function body", f.name, r.begin+1)
		}
		ex := exercises[r.id]
		what := firstSentence(fn.Doc)
		switch {
		case what != "":
		case ex.File == f.name && ex.Line == r.begin+1:
			what = strings.TrimSuffix(ex.Title, ".") + "."
		default:
			what = fmt.Sprintf("part of %q.", strings.TrimSuffix(ex.Title, "."))
		}
		whole := what
		if fn.Doc != nil {
			whole = cmp.Or(new(doc.Package).Synopsis(fn.Doc.Text()), what)
		}
		out[r.begin] = stubText{fn: FuncKey(fn), what: fmt.Sprintf("Exercise %d: %s", r.id, what), whole: whole}
	}
	return out, nil
}

// enclosingFunc is the function declaration whose body holds line (1-based).
func enclosingFunc(fset *token.FileSet, file *ast.File, line int) *ast.FuncDecl {
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Body != nil && fset.Position(fn.Body.Lbrace).Line < line && line < fset.Position(fn.Body.Rbrace).Line {
			return fn
		}
	}
	return nil
}

// firstSentence is the doc comment's first sentence, on one line. One
// longer than maxWhat is cut at its last clause (or before a parenthesis)
// that leaves at least minWhat characters and no bracket open, else at a
// word, with "…".
func firstSentence(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	s := new(doc.Package).Synopsis(g.Text())
	if len(s) <= maxWhat {
		return s
	}
	for _, sep := range []string{"; ", ": ", ", ", " ("} {
		for i := strings.LastIndex(s[:maxWhat], sep); i >= minWhat; i = strings.LastIndex(s[:i], sep) {
			if balanced(s[:i]) {
				return s[:i] + "."
			}
		}
	}
	if i := strings.LastIndex(s[:maxWhat], " "); i > 0 {
		return s[:i] + "…"
	}
	return s
}

// minWhat is the shortest cut firstSentence makes: "isExpiredError: the
// version is too old" is not to be cut down to its name.
const minWhat = 40

// balanced reports whether every bracket opened in s is closed.
func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return depth == 0
}

// FuncLines maps each function an exercise has you write ("Cache.start")
// to what its stub says of it, without the "Exercise N: " before, and
// uncut: the first sentence of its doc comment.
func FuncLines(chapterDir string) (map[string]string, error) {
	files, exercises, err := readPackage(chapterDir)
	if err != nil {
		return nil, err
	}
	lines := map[string]string{}
	for _, f := range files {
		stubs, err := describeStubs(f, exercises)
		if err != nil {
			return nil, err
		}
		for _, st := range stubs {
			lines[st.fn] = st.whole
		}
	}
	return lines, nil
}
