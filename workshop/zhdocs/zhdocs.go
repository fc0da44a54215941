// Package zhdocs reads the Chinese docs in docs/zh/ against the English
// docs they translate. Each zh doc has the English doc's sections (its
// headings of level 1 to 3), and each zh section records, right under its
// heading, the anchor and a hash of the English section it translates:
//
//	<a id="walkthrough"></a>
//	## 代码走读
//	<!-- en: walkthrough sha256:0123456789ab -->
//
// The workshop's tests (docs_zh_test.go) hold every zh doc to that; the
// runner uses it to show a Chinese hint only while its translation is
// fresh.
package zhdocs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Dir is where the Chinese docs live, relative to the repository root.
const Dir = "docs/zh"

// renamed maps a zh doc that does not share its English doc's name to it:
// docs/zh/README.md is already the twin of docs/README.md.
var renamed = map[string]string{"quickstart.md": "README.md"}

// untranslated lists the zh docs that translate nothing.
var untranslated = map[string]bool{"glossary.md": true}

// Source is the English doc (relative to the repository root) that the zh
// doc named name translates, or "" for one that translates nothing.
func Source(name string) string {
	switch {
	case untranslated[name]:
		return ""
	case renamed[name] != "":
		return renamed[name]
	}
	return filepath.ToSlash(filepath.Join("docs", name))
}

var (
	// Marker is the line under a zh heading: the English anchor and,
	// once recorded, the hash of the English section.
	Marker = regexp.MustCompile(`^<!-- en: (\S+)(?: sha256:([0-9a-f]+))? -->$`)
	// IDAnchor is an explicit anchor, <a id="...">.
	IDAnchor = regexp.MustCompile(`<a id="([^"]+)"></a>`)
)

// Anchor is the anchor GitHub gives a heading: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', the rest dropped.
func Anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// Section is a heading of level 1 to 3 and the text up to the next one.
type Section struct {
	Level  int
	Title  string
	Anchor string // the GitHub anchor (English) or the <a id> before the heading (zh)
	Line   int    // 1-based line of the heading
	Body   []string
	// zh only: the "<!-- en: ... -->" line right under the heading, and
	// its 0-based index in the file's lines (-1 if none).
	Marker     string
	MarkerLine int
}

// Split cuts a markdown doc at its headings of level 1 to 3 (outside code
// fences). Text before the first heading is dropped: every doc starts with
// its title.
func Split(text string, zh bool) []Section {
	lines := strings.Split(text, "\n")
	var out []Section
	seen := map[string]int{}
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			if len(out) > 0 {
				out[len(out)-1].Body = append(out[len(out)-1].Body, line)
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
		}
		level := 0
		for level < len(line) && line[level] == '#' {
			level++
		}
		if fence == "" && level >= 1 && level <= 3 && len(line) > level && line[level] == ' ' {
			s := Section{Level: level, Title: strings.TrimSpace(line[level:]), Line: i + 1, MarkerLine: -1}
			s.Anchor = Anchor(s.Title)
			if n := seen[s.Anchor]; n > 0 {
				s.Anchor = fmt.Sprintf("%s-%d", s.Anchor, n)
			}
			seen[Anchor(s.Title)]++
			if zh {
				s.Anchor = ""
				if i > 0 {
					if m := IDAnchor.FindStringSubmatch(lines[i-1]); m != nil {
						s.Anchor = m[1]
					}
				}
				for j := i + 1; j < len(lines); j++ {
					if strings.TrimSpace(lines[j]) == "" {
						continue
					}
					if strings.HasPrefix(lines[j], "<!-- en:") {
						s.Marker, s.MarkerLine = strings.TrimSpace(lines[j]), j
					}
					break
				}
			}
			out = append(out, s)
		}
		if len(out) > 0 {
			out[len(out)-1].Body = append(out[len(out)-1].Body, line)
		}
	}
	return out
}

// Hash is the first 12 hex digits of the sha256 of an English section, its
// heading included, with trailing whitespace and trailing blank lines
// dropped.
func (s Section) Hash() string {
	lines := make([]string, 0, len(s.Body))
	for _, l := range s.Body {
		lines = append(lines, strings.TrimRight(l, " \t\r"))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])[:12]
}

// Translates reads a zh section's marker: the English anchor it
// translates and the hash it recorded ("" before one is recorded).
func (s Section) Translates() (anchor, hash string, ok bool) {
	m := Marker.FindStringSubmatch(s.Marker)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// FreshSection returns the zh section of the doc docs/zh/name that
// translates the English section anchor, and whether it is fresh: its
// recorded hash is the English section's as it is now.
func FreshSection(root, name, anchor string) (Section, bool) {
	src := Source(name)
	if src == "" {
		return Section{}, false
	}
	zh, err := os.ReadFile(filepath.Join(root, Dir, name))
	if err != nil {
		return Section{}, false
	}
	en, err := os.ReadFile(filepath.Join(root, src))
	if err != nil {
		return Section{}, false
	}
	want := ""
	for _, s := range Split(string(en), false) {
		if s.Anchor == anchor {
			want = s.Hash()
		}
	}
	for _, s := range Split(string(zh), true) {
		if a, h, ok := s.Translates(); ok && a == anchor {
			return s, want != "" && h == want
		}
	}
	return Section{}, false
}

// ExerciseHints reads the Chinese hints of a chapter (named as its
// directory, "03-indexer") from the exercise table of docs/zh/NN-name.md:
// its rows' "#" and "提示" columns. The English hints stay the one source
// (the exercise markers); these are their translation, returned only while
// the zh Exercises section is fresh, so a stale translation is never shown.
func ExerciseHints(root, chapter string) map[int]string {
	s, fresh := FreshSection(root, chapter+".md", "exercises")
	if !fresh {
		return nil
	}
	hints := map[int]string{}
	num, hint := -1, -1
	for _, line := range s.Body {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if num < 0 {
			for i, c := range cells {
				switch c {
				case "#":
					num = i
				case "提示":
					hint = i
				}
			}
			if hint < 0 {
				num = -1
			}
			continue
		}
		if num >= len(cells) || hint >= len(cells) {
			continue
		}
		if id, err := strconv.Atoi(cells[num]); err == nil && cells[hint] != "" {
			hints[id] = cells[hint]
		}
	}
	return hints
}

// CodeBlocks lists a section's fenced code blocks other than mermaid
// diagrams (whose labels are translated), each without the fence's own
// indentation: the code, commands and transcripts a translation keeps as
// they are.
func (s Section) CodeBlocks() []string {
	var out []string
	var cur []string
	indent, fence, keep := "", "", false
	for _, line := range s.Body {
		trimmed := strings.TrimLeft(line, " ")
		if fence == "" {
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				indent, fence = line[:len(line)-len(trimmed)], trimmed[:3]
				keep = !strings.HasPrefix(trimmed[3:], "mermaid")
				cur = []string{trimmed}
			}
			continue
		}
		cur = append(cur, strings.TrimRight(strings.TrimPrefix(line, indent), " \t\r"))
		if strings.HasPrefix(trimmed, fence) {
			if keep {
				out = append(out, strings.Join(cur, "\n"))
			}
			fence = ""
		}
	}
	return out
}

// diagramLabels are the parts of a mermaid line a translation may change:
// quoted strings, node and edge labels, participant names, message texts.
var diagramLabels = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"[^"]*"`), `""`},
	{regexp.MustCompile(`\[\([^\]]*\)\]`), `[()]`},
	{regexp.MustCompile(`\(\[[^\]]*\]\)`), `([])`},
	{regexp.MustCompile(`\[\[[^\]]*\]\]`), `[[]]`},
	{regexp.MustCompile(`\[[^\]]*\]`), `[]`},
	{regexp.MustCompile(`\(\([^)]*\)\)`), `(())`},
	{regexp.MustCompile(`\|[^|]*\|`), `||`},
	{regexp.MustCompile(`^(\s*participant \w+) as .*$`), `$1`},
	{regexp.MustCompile(`^(\s*(Note [^:]*|[\w-]+[-=.>x]+\w+)):.*$`), `$1:`},
	{regexp.MustCompile(`(--\s)[^-]*?(\s-->)`), `$1$2`},
}

// Diagrams lists a section's mermaid diagrams with their labels taken
// out: what a translation must keep (the nodes, the edges, the order).
func (s Section) Diagrams() []string {
	var out, cur []string
	in := false
	for _, line := range s.Body {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && trimmed == "```mermaid":
			in, cur = true, nil
		case in && trimmed == "```":
			in = false
			out = append(out, strings.Join(cur, "\n"))
		case in:
			l := strings.TrimRight(line, " \t\r")
			for _, d := range diagramLabels {
				l = d.re.ReplaceAllString(l, d.with)
			}
			cur = append(cur, l)
		}
	}
	return out
}
