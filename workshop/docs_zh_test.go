package workshop_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/zhdocs"
)

// The Chinese docs live in docs/zh/, one file per English doc, under the
// English file's name: docs/zh/03-indexer.md translates docs/03-indexer.md.
// The root README.md is translated as docs/zh/quickstart.md (zhdocs.Source;
// docs/zh/README.md is the twin of docs/README.md). Every heading of level 1 to 3 of the
// English doc is a section; its zh twin keeps the English anchor reachable and
// records a hash of the English text it translates:
//
//	<a id="walkthrough"></a>
//	## 代码走读
//	<!-- en: walkthrough sha256:0123456789ab -->
//
// TestZhFresh fails when the English section changed since. After updating
// the translation, record the new hash with
//
//	go test ./workshop -run TestZhFresh -args -rehash docs/zh/03-indexer.md#walkthrough
//
// (a file without #anchor rehashes all its sections; several targets are
// separated by commas). Only rehash a section you checked against the
// current English. A new zh doc starts from the frame that
//
//	go test ./workshop -run TestZhSkeleton -v -args -skeleton docs/03-indexer.md
//
// prints. The terms are docs/zh/glossary.md's (TestZhGlossary).
var zhRehash = flag.String("rehash", "", "comma-separated docs/zh/FILE.md[#anchor]: record the current English hash of those zh sections")

// zhDocs lists docs/zh/*.md with, for each, its English source relative to
// the repository root ("" for a doc that translates nothing).
func zhDocs(t *testing.T, root string) (docs []string, source map[string]string) {
	t.Helper()
	docs, _ = filepath.Glob(filepath.Join(root, "docs", "zh", "*.md"))
	source = map[string]string{}
	for _, doc := range docs {
		source[doc] = zhdocs.Source(filepath.Base(doc))
	}
	return docs, source
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestZhFresh keeps every Chinese doc in step with its English doc: the same
// sections in the same order, each keeping its English anchor, each
// carrying the hash of the English section it translates, with the same
// code blocks (commands and transcripts unchanged) and the same diagrams
// (labels translated), and a link back to the English doc.
func TestZhFresh(t *testing.T) {
	root := repoRoot(t)
	docs, source := zhDocs(t, root)
	if len(docs) == 0 {
		t.Skip("no docs/zh yet")
	}
	rehash := map[string]bool{} // "docs/zh/x.md" or "docs/zh/x.md#anchor"
	for _, r := range strings.Split(*zhRehash, ",") {
		if r = strings.TrimSpace(r); r != "" {
			file, anchor, ok := strings.Cut(r, "#")
			key := filepath.ToSlash(filepath.Clean(file))
			if ok {
				key += "#" + anchor
			}
			rehash[key] = true
		}
	}
	used := map[string]bool{}
	covered, translated := 0, map[string]bool{}
	for _, doc := range docs {
		src := source[doc]
		if src == "" {
			continue
		}
		rel, _ := filepath.Rel(root, doc)
		rel = filepath.ToSlash(rel)
		translated[src] = true
		en, err := os.ReadFile(filepath.Join(root, src))
		if err != nil {
			t.Errorf("%s translates %s, which does not exist (name it after an English doc, or list it in zhSource)", rel, src)
			continue
		}
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		enSecs, zhSecs := zhdocs.Split(string(en), false), zhdocs.Split(string(data), true)
		back, _ := filepath.Rel(filepath.Dir(doc), filepath.Join(root, src))
		if !strings.Contains(string(data), "]("+filepath.ToSlash(back)+")") {
			t.Errorf("%s does not link back to its English doc: add [English](%s) under its title", rel, filepath.ToSlash(back))
		}
		enByAnchor := map[string]zhdocs.Section{}
		for _, s := range enSecs {
			enByAnchor[s.Anchor] = s
		}
		changed := false
		for i, z := range zhSecs {
			where := fmt.Sprintf("%s:%d (%s)", rel, z.Line, z.Title)
			if z.Marker == "" {
				t.Errorf("%s: no <!-- en: ANCHOR --> line right under the heading says which English section this translates", where)
				continue
			}
			m := zhdocs.Marker.FindStringSubmatch(z.Marker)
			if m == nil {
				t.Errorf("%s: %q is not <!-- en: ANCHOR sha256:HASH -->", where, z.Marker)
				continue
			}
			anchor, recorded := m[1], m[2]
			e, ok := enByAnchor[anchor]
			if !ok {
				t.Errorf("%s translates %s §%s, which no longer exists: follow the English doc's sections", where, src, anchor)
				continue
			}
			if z.Anchor != anchor {
				t.Errorf("%s: put <a id=\"%s\"></a> on the line before the heading, so links to the English anchor work here too", where, anchor)
			}
			if z.Level != e.Level {
				t.Errorf("%s is a level-%d heading; %s §%s is level %d", where, z.Level, src, anchor, e.Level)
			}
			if i < len(enSecs) && enSecs[i].Anchor != anchor {
				t.Errorf("%s: section %d translates §%s, but §%s is section %d of %s: keep the English order", where, i+1, anchor, enSecs[i].Anchor, i+1, src)
			}
			if en, zh := e.CodeBlocks(), z.CodeBlocks(); !slices.Equal(en, zh) {
				t.Errorf("%s: the code blocks differ from %s §%s's (%d there, %d here): code, commands and transcripts stay as they are", where, src, e.Title, len(en), len(zh))
			}
			if en, zh := e.Diagrams(), z.Diagrams(); !slices.Equal(en, zh) {
				t.Errorf("%s: the diagrams differ from %s §%s's in more than their labels: keep every node and edge, translate only the labels", where, src, e.Title)
			}
			want := e.Hash()
			if recorded == want {
				covered++
				continue
			}
			if rehash[rel] || rehash[rel+"#"+anchor] {
				used[rel], used[rel+"#"+anchor] = true, true
				lines[z.MarkerLine] = fmt.Sprintf("<!-- en: %s sha256:%s -->", anchor, want)
				changed = true
				covered++
				t.Logf("%s §%s: recorded sha256:%s", rel, anchor, want)
				continue
			}
			fix := fmt.Sprintf("go test ./workshop -run TestZhFresh -args -rehash %s#%s", rel, anchor)
			if recorded == "" {
				t.Errorf("%s:%d §%s translates %s §%s and has no hash yet: once the translation is checked, record it: %s", rel, z.Line, e.Title, src, e.Title, fix)
			} else {
				t.Errorf("%s:%d §%s translates %s:%d §%s, which changed since (sha256:%s, now sha256:%s): update the translation, then its hash: %s", rel, z.Line, e.Title, src, e.Line, e.Title, recorded, want, fix)
			}
		}
		zhAnchors := map[string]bool{}
		for _, z := range zhSecs {
			if m := zhdocs.Marker.FindStringSubmatch(z.Marker); m != nil {
				zhAnchors[m[1]] = true
			}
		}
		for _, e := range enSecs {
			if !zhAnchors[e.Anchor] {
				t.Errorf("%s:%d §%s (#%s) has no twin in %s: translate it there, in the same place", src, e.Line, e.Title, e.Anchor, rel)
			}
		}
		if changed {
			if err := os.WriteFile(doc, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for r := range rehash {
		if !used[r] {
			t.Logf("-rehash %s: nothing to record (already fresh, or not a zh section)", r)
		}
	}
	var missing []string
	english, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	english = append(english, filepath.Join(root, "README.md"))
	for _, e := range english {
		rel, _ := filepath.Rel(root, e)
		if !translated[filepath.ToSlash(rel)] {
			missing = append(missing, filepath.ToSlash(rel))
		}
	}
	sort.Strings(missing)
	if len(missing) == 0 {
		missing = []string{"none"}
	}
	t.Logf("%d zh sections fresh; English docs without a zh twin yet: %s", covered, strings.Join(missing, ", "))
}

// TestZhLinks checks the links of the zh docs as TestDocsLinks checks the
// English ones, and also their #anchors.
func TestZhLinks(t *testing.T) {
	root := repoRoot(t)
	docs, _ := zhDocs(t, root)
	if len(docs) == 0 {
		t.Skip("no docs/zh yet")
	}
	checkDocLinks(t, root, docs, docAnchors)
}

// docAnchors lists the anchors a markdown file offers: its headings'
// GitHub anchors and every <a id="...">.
func docAnchors(path string) map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range zhdocs.Split(string(data), false) {
		out[s.Anchor] = true
	}
	for _, m := range zhdocs.IDAnchor.FindAllStringSubmatch(string(data), -1) {
		out[m[1]] = true
	}
	return out
}

type glossaryTerm struct {
	english, chinese string
	avoid            []string
	line             int
}

// readGlossary reads the table of docs/zh/glossary.md: the columns English,
// 中文 (the one term to use) and 不用 (variants to avoid, separated by 、).
func readGlossary(t *testing.T, path string) []glossaryTerm {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var terms []glossaryTerm
	cols := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if len(cols) == 0 {
			for j, c := range cells {
				cols[c] = j
			}
			for _, need := range []string{"English", "中文", "不用"} {
				if _, ok := cols[need]; !ok {
					t.Fatalf("glossary.md:%d: the table needs the columns English, 中文 and 不用", i+1)
				}
			}
			continue
		}
		if strings.Trim(line, "|-: ") == "" {
			continue
		}
		cell := func(name string) string {
			if j := cols[name]; j < len(cells) {
				return cells[j]
			}
			return ""
		}
		term := glossaryTerm{english: cell("English"), chinese: cell("中文"), line: i + 1}
		for _, v := range strings.FieldsFunc(cell("不用"), func(r rune) bool { return r == '、' || r == '，' }) {
			if v = strings.TrimSpace(v); v != "" && v != "—" {
				term.avoid = append(term.avoid, v)
			}
		}
		terms = append(terms, term)
	}
	return terms
}

// zhProse is a zh doc with what the glossary does not govern blanked out:
// code blocks, inline code, link targets, HTML comments, and quotations in
// 「」 (how the doc cites a seed note in the note's own words).
func zhProse(text string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			b.WriteString("\n")
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			b.WriteString("\n")
			continue
		}
		b.WriteString(line + "\n")
	}
	s := b.String()
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile("`[^`\n]*`"),
		regexp.MustCompile(`\]\([^)]*\)`),
		regexp.MustCompile(`(?s)<!--.*?-->`),
		regexp.MustCompile(`(?s)「.*?」`),
	} {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			return strings.Map(func(r rune) rune {
				if r == '\n' {
					return r
				}
				return ' '
			}, m)
		})
	}
	return s
}

// TestZhGlossary holds every zh doc to docs/zh/glossary.md: one Chinese
// term per concept, and none of the variants the glossary says to avoid
// (outside code and 「quotations」).
func TestZhGlossary(t *testing.T) {
	root := repoRoot(t)
	docs, _ := zhDocs(t, root)
	if len(docs) == 0 {
		t.Skip("no docs/zh yet")
	}
	gpath := filepath.Join(root, "docs", "zh", "glossary.md")
	terms := readGlossary(t, gpath)
	if len(terms) == 0 {
		t.Fatal("docs/zh/glossary.md has no terms")
	}
	preferred := map[string]string{}
	for _, g := range terms {
		if g.english == "" || g.chinese == "" {
			t.Errorf("glossary.md:%d: a term needs its English and its 中文", g.line)
		}
		if strings.ContainsAny(g.chinese, "/、，,") {
			t.Errorf("glossary.md:%d: %q: one Chinese term per concept (put variants under 不用)", g.line, g.chinese)
		}
		if prev, ok := preferred[g.chinese]; ok {
			t.Errorf("glossary.md:%d: %s is already the term for %s", g.line, g.chinese, prev)
		}
		preferred[g.chinese] = g.english
	}
	for _, g := range terms {
		for _, v := range g.avoid {
			if e, ok := preferred[v]; ok {
				t.Errorf("glossary.md:%d: %s is to be avoided for %s but is the term for %s", g.line, v, g.english, e)
			}
		}
	}
	for _, doc := range docs {
		if doc == gpath {
			continue
		}
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		prose := zhProse(string(data))
		rel, _ := filepath.Rel(root, doc)
		for _, g := range terms {
			for _, v := range g.avoid {
				for off := 0; ; {
					k := strings.Index(prose[off:], v)
					if k < 0 {
						break
					}
					at := off + k
					off = at + len(v)
					if insidePreferred(prose, at, len(v), preferred) {
						continue
					}
					line := strings.Count(prose[:at], "\n") + 1
					t.Errorf("%s:%d: %q: the glossary says %s for %s (quote a note's own words in 「」)", filepath.ToSlash(rel), line, v, g.chinese, g.english)
				}
			}
		}
	}
}

// insidePreferred reports whether the text at [at, at+n) is part of a
// longer preferred term there (索引 inside 索引器).
func insidePreferred(s string, at, n int, preferred map[string]string) bool {
	for p := range preferred {
		if len(p) <= n {
			continue
		}
		for start := max(0, at-len(p)+n); start <= at && start+len(p) <= len(s); start++ {
			if s[start:start+len(p)] == p && start <= at && at+n <= start+len(p) {
				return true
			}
		}
	}
	return false
}

var zhSkeleton = flag.String("skeleton", "", "an English doc (docs/FILE.md): print the skeleton of its zh twin, every section's anchor and marker")

// TestZhSkeleton prints, with -skeleton docs/FILE.md, the frame a new zh doc
// starts from: every English section's anchor, heading and marker (no hash
// yet: -rehash records it once the section is translated).
func TestZhSkeleton(t *testing.T) {
	if *zhSkeleton == "" {
		t.Skip("only with -args -skeleton docs/FILE.md")
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), *zhSkeleton))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range zhdocs.Split(string(data), false) {
		fmt.Fprintf(&b, "<a id=\"%s\"></a>\n%s %s\n<!-- en: %s -->\n\n", s.Anchor, strings.Repeat("#", s.Level), s.Title, s.Anchor)
	}
	fmt.Print(b.String())
}
