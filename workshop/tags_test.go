package workshop_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"example.com/walkthrough/workshop/chapters"
)

// TestUpstreamTags resolves every counterpart tag in the chapters' code
// against the module cache, so a tag cannot name a file or an identifier
// upstream does not have. A tag is a comment line of one of two forms
// (docs/contributing.md):
//
//	client-go: tools/cache/reflector.go (Reflector, Reflector.watch)
//	upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Cacher), watch_cache.go (watchCache)
//
// A client-go: path is inside k8s.io/client-go; an upstream: path starts
// with its module's path, and a bare file name is in the directory of the
// ref before it. Each ref is a file, then its identifiers in parentheses:
// a top-level name, or Type.Member for a method or a field. Prose may
// follow the refs, and a tag may run on over the comment's next lines;
// every "file.go (names)" in it is resolved. "client-go: none" or
// "upstream: none", then why, says a thing has no counterpart.
//
// Versions are the chapters' go.mod pins, then tools/controlplane/go.mod's
// (the kube-apiserver build, for modules no chapter requires, such as
// k8s.io/apiserver). A module missing from the cache is fetched with go
// mod download.
func TestUpstreamTags(t *testing.T) {
	root, list := allChapters(t)
	versions := map[string]string{}
	for _, c := range list {
		readPins(t, filepath.Join(c.Dir, "go.mod"), versions)
	}
	readPins(t, filepath.Join(root, "tools", "controlplane", "go.mod"), versions)
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	cache := &upstreamCache{modcache: strings.TrimSpace(string(modcache)), versions: versions,
		files: map[string]map[string]bool{}, dirs: map[string]string{}}

	resolved, none := 0, 0
	for _, c := range list {
		err := filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "exercise" || d.Name() == "testdata") {
				return filepath.SkipDir // exercise/ copies the reference's tags
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			for _, tag := range fileTags(t, p) {
				where := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), tag.line)
				if tag.err != "" {
					t.Errorf("%s: %s\n\t%s", where, tag.err, tag.text)
					continue
				}
				if tag.none {
					none++
					continue
				}
				for _, r := range tag.refs {
					if msg := cache.resolve(r); msg != "" {
						t.Errorf("%s: %s\n\t%s", where, msg, tag.text)
					} else {
						resolved++
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if resolved == 0 {
		t.Fatal("no tags resolved: is the test running from workshop/?")
	}
	t.Logf("%d refs resolved, %d tags say none", resolved, none)
}

// allChapters is the repository's root and its chapters, or the test
// stops.
func allChapters(t *testing.T) (string, []chapters.Chapter) {
	t.Helper()
	root, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	list, err := chapters.All(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, list
}

// readPins adds each module version go.mod requires, or replaces with a
// version, to versions, keeping a version already there.
func readPins(t *testing.T, gomod string, versions map[string]string) {
	t.Helper()
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]string{}
	add := func(kind string, f []string) {
		switch {
		case kind == "require" && len(f) == 2 && pins[f[0]] == "":
			pins[f[0]] = f[1]
		case kind == "replace" && len(f) == 4 && f[1] == "=>" && f[2] == f[0]:
			pins[f[0]] = f[3] // the build uses the replacement's version
		}
	}
	block := ""
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case len(f) == 2 && f[1] == "(":
			block = f[0]
		case f[0] == ")":
			block = ""
		case f[0] == "require" || f[0] == "replace":
			add(f[0], f[1:])
		case block != "":
			add(block, f)
		}
	}
	for m, v := range pins {
		if versions[m] == "" && v != "v0.0.0" {
			versions[m] = v
		}
	}
}

// An upstreamRef is one "file.go (names)" of a tag.
type upstreamRef struct {
	module, file string // file is relative to the module's root
	names        []string
}

// An upstreamTag is one counterpart tag: its refs, or why it cannot be read.
type upstreamTag struct {
	line int
	text string // the tag's lines, joined
	none bool
	refs []upstreamRef
	err  string
}

var (
	tagPrefix = regexp.MustCompile(`^(client-go|upstream|kube-apiserver|apimachinery|apiserver):\s`)
	tagRef    = regexp.MustCompile(`(?:^|\s)(\S+\.go) \(([^()]*)\)`)
	tagName   = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$`)
)

// fileTags reads the tags in one Go file's comments.
func fileTags(t *testing.T, file string) []upstreamTag {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var tags []upstreamTag
	for _, g := range f.Comments {
		for i := 0; i < len(g.List); i++ {
			first := commentLine(g.List[i])
			m := tagPrefix.FindStringSubmatch(first)
			if m == nil {
				continue
			}
			tg := upstreamTag{line: fset.Position(g.List[i].Pos()).Line}
			lines := []string{first}
			for i+1 < len(g.List) && commentLine(g.List[i+1]) != "" && !tagPrefix.MatchString(commentLine(g.List[i+1])) {
				i++
				lines = append(lines, commentLine(g.List[i]))
			}
			tg.text = strings.Join(lines, " ")
			parseTag(&tg, m[1], strings.TrimSpace(strings.TrimPrefix(tg.text, m[0])))
			tags = append(tags, tg)
		}
	}
	return tags
}

// commentLine is one // comment's text, without the slashes and the space.
func commentLine(c *ast.Comment) string {
	return strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
}

// parseTag fills in tg from the text after its prefix.
func parseTag(tg *upstreamTag, prefix, rest string) {
	if prefix != "client-go" && prefix != "upstream" {
		tg.err = prefix + ": is not a tag form: write upstream: k8s.io/<module>/<file>.go (Name)"
		return
	}
	if rest == "none" || strings.HasPrefix(rest, "none ") || strings.HasPrefix(rest, "none;") || strings.HasPrefix(rest, "none,") {
		tg.none = true
		return
	}
	refs := tagRef.FindAllStringSubmatchIndex(rest, -1)
	if len(refs) == 0 || refs[0][0] != 0 {
		tg.err = "a tag starts with a file and its names in parentheses, as in " + prefix + ": tools/cache/store.go (Store)"
		return
	}
	dir := ""
	for _, r := range refs {
		file, names := rest[r[2]:r[3]], rest[r[4]:r[5]]
		ref := upstreamRef{file: file}
		switch {
		case prefix == "client-go" && strings.HasPrefix(file, "k8s.io/"):
			tg.err = file + ": a client-go: path is inside k8s.io/client-go; name another module with upstream:"
			return
		case prefix == "client-go":
			ref.module = "k8s.io/client-go"
		case !strings.Contains(file, "/") && dir != "":
			ref.file = path.Join(dir, file)
		case strings.HasPrefix(file, "k8s.io/client-go/"):
			tg.err = file + ": write client-go: " + strings.TrimPrefix(file, "k8s.io/client-go/")
			return
		}
		if ref.module == "" {
			ref.module = "?" // found against the pins in resolve
		}
		if prefix == "upstream" {
			dir = path.Dir(ref.file)
		}
		for _, n := range strings.Split(names, ",") {
			n = strings.TrimSpace(n)
			if !tagName.MatchString(n) {
				tg.err = fmt.Sprintf("%s (%s): %q is not a Go name (Name or Type.Member); put prose outside the parentheses", file, names, n)
				return
			}
			ref.names = append(ref.names, n)
		}
		tg.refs = append(tg.refs, ref)
	}
}

// upstreamCache finds modules in the module cache and remembers what each
// file declares.
type upstreamCache struct {
	modcache string
	versions map[string]string
	dirs     map[string]string          // module → its directory, or "!" + why not
	files    map[string]map[string]bool // path → names declared (nil: no such file)
}

// resolve checks one ref and returns what is wrong with it, or "".
func (c *upstreamCache) resolve(r upstreamRef) string {
	file := r.file
	if r.module == "?" {
		for m := range c.versions {
			if strings.HasPrefix(file, m+"/") && len(m) > len(r.module) {
				r.module = m
			}
		}
		if r.module == "?" {
			return file + ": no chapter's go.mod, nor tools/controlplane's, pins a module this path is in"
		}
		file = strings.TrimPrefix(file, r.module+"/")
	}
	dir := c.moduleDir(r.module)
	if strings.HasPrefix(dir, "!") {
		return dir[1:]
	}
	at := r.module + "@" + c.versions[r.module] + "/" + file
	decls, ok := c.files[at]
	if !ok {
		decls = declared(filepath.Join(dir, filepath.FromSlash(file)))
		c.files[at] = decls
	}
	if decls == nil {
		return at + " does not exist"
	}
	var missing []string
	for _, n := range r.names {
		if !decls[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("%s declares no %s", at, strings.Join(missing, ", "))
	}
	return ""
}

// moduleDir is module's directory in the module cache at its pinned
// version, downloaded when it is not there yet.
func (c *upstreamCache) moduleDir(module string) string {
	if d, ok := c.dirs[module]; ok {
		return d
	}
	v := c.versions[module]
	d := ""
	if v == "" {
		d = "!" + module + ": no chapter's go.mod, nor tools/controlplane's, pins it"
	} else {
		d = modDir(c.modcache, module, v)
	}
	c.dirs[module] = d
	return d
}

// modDir is module@version's directory in modcache, fetched with go mod
// download when it is missing: "!" and why when it cannot be had.
func modDir(modcache, module, version string) string {
	dir := filepath.Join(modcache, escapeModule(module)+"@"+version)
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = os.TempDir() // outside every module: go.mod and go.sum stay as they are
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		var exit *exec.ExitError
		if errors.As(err, &exit) && info.Error == "" {
			info.Error = strings.TrimSpace(string(exit.Stderr))
		}
		return fmt.Sprintf("!%s@%s is not in the module cache and go mod download failed (%v %s): run it once with the network", module, version, err, info.Error)
	}
	return info.Dir
}

// escapeModule is a module path as the module cache spells it: each
// upper-case letter as "!" and its lower case.
func escapeModule(m string) string {
	var b strings.Builder
	for _, r := range m {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// declared lists what a Go file declares at its top level, and each
// method and struct field as Type.Name; nil when the file does not exist.
func declared(file string) map[string]bool {
	src, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer src.Close()
	f, err := parser.ParseFile(token.NewFileSet(), file, bufio.NewReader(src), parser.SkipObjectResolution)
	if err != nil {
		return map[string]bool{}
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names[d.Name.Name] = true
				continue
			}
			names[receiverName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					for _, f := range members(s.Type) {
						names[s.Name.Name+"."+f] = true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

// receiverName is a method receiver's type name, without *, [T] or a package.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// members are a struct's fields or an interface's methods.
func members(e ast.Expr) []string {
	var list *ast.FieldList
	switch x := e.(type) {
	case *ast.StructType:
		list = x.Fields
	case *ast.InterfaceType:
		list = x.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range list.List {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// TestEveryChapterTypeIsTagged: each type a chapter's package declares
// says where upstream builds the same thing, or that nothing there does
// (client-go: none, then why), so a reader can always go and compare. The
// harness packages under a chapter (scenario drivers, test servers, the
// demo) are tools of the workshop, not part of the rebuild, and need none.
func TestEveryChapterTypeIsTagged(t *testing.T) {
	root, list := allChapters(t)
	for _, c := range list {
		paths, err := filepath.Glob(filepath.Join(c.Dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			if ast.IsGenerated(f) {
				continue
			}
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, spec := range g.Specs {
					ts := spec.(*ast.TypeSpec)
					// A group's tag, above "type (", covers its members.
					if text := ts.Doc.Text() + g.Doc.Text(); !strings.Contains(text, "client-go:") && !strings.Contains(text, "upstream:") {
						rel, _ := filepath.Rel(root, p)
						t.Errorf("%s: type %s has no counterpart tag: add client-go: or upstream: (file and name), or client-go: none and why (docs/contributing.md)",
							filepath.ToSlash(rel), ts.Name.Name)
					}
				}
			}
		}
	}
}
