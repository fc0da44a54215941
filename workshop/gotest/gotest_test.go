package gotest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuildAtKeepsTheBinary: a kept binary stays where it was built when
// its run is over (Remove), and the next build, of the same code or of
// changed code, goes to the same file.
func TestBuildAtKeepsTheBinary(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module p\n\ngo 1.25\n")
	write("p_test.go", "package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n")
	t.Setenv("GOWORK", "off")
	path := filepath.Join(t.TempDir(), "bin", "chapter.test")
	unlock, ok := Lock(path)
	if !ok {
		t.Skip("files cannot be locked here: nothing is kept")
	}
	defer unlock()
	built := func(files map[string][]byte) {
		t.Helper()
		bin, out, err := BuildAt(path, dir, files)
		if err != nil || bin == nil {
			t.Fatalf("build: %v %s", err, out)
		}
		bin.Remove()
		if bin.Path != path {
			t.Fatalf("built %s, want the kept %s", bin.Path, path)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("Remove took the kept binary: %v", err)
		}
	}
	built(nil)
	built(map[string][]byte{"p_test.go": []byte("package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) { t.Log(1) }\n")})
}
