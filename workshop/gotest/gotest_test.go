package gotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestBuildAtAsksTheGoCommandOnlyWhenSomethingChanged: a second build of
// unchanged code does not run go test -c; a changed file of the
// workspace, a changed overlay or other flags do, and the binary is the
// new code's, its tests listed anew (TopLevel keeps a kept binary's list).
func TestBuildAtAsksTheGoCommandOnlyWhenSomethingChanged(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the go command is watched through a shell script")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// A go command that notes each go test -c before it runs the real one.
	bin := t.TempDir()
	log := filepath.Join(bin, "builds")
	script := "#!/bin/sh\ncase \"$1 $2\" in \"test -c\") echo build >> " + log + ";; esac\nexec " + goCmd + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test := func(name string) string {
		return "package p\n\nimport \"testing\"\n\nfunc " + name + "(t *testing.T) {}\n"
	}
	write("go.mod", "module p\n\ngo 1.25\n")
	write("p_test.go", test("TestP"))
	path := filepath.Join(t.TempDir(), "bin", "chapter.test")
	unlock, ok := Lock(path)
	if !ok {
		t.Skip("files cannot be locked here: nothing is kept")
	}
	defer unlock()
	builds := 0
	check := func(what string, files map[string][]byte, flags []string, wantBuild bool, wantTest string) {
		t.Helper()
		b, out, err := BuildAt(path, dir, files, flags...)
		if err != nil || b == nil {
			t.Fatalf("%s: build: %v %s", what, err, out)
		}
		defer b.Remove()
		data, _ := os.ReadFile(log)
		n := strings.Count(string(data), "build")
		if built := n > builds; built != wantBuild {
			t.Errorf("%s: go test -c ran: %v, want %v", what, built, wantBuild)
		}
		builds = n
		if got, err := b.TopLevel(); err != nil || strings.Join(got, " ") != wantTest {
			t.Errorf("%s: the binary has tests %v (%v), want %s", what, got, err, wantTest)
		}
	}
	check("first build", nil, nil, true, "TestP")
	check("unchanged", nil, nil, false, "TestP")
	write("p_test.go", test("TestQ"))
	check("a file changed", nil, nil, true, "TestQ")
	check("unchanged again", nil, nil, false, "TestQ")
	overlay := map[string][]byte{"p_test.go": []byte(test("TestR"))}
	check("an overlay", overlay, nil, true, "TestR")
	check("the same overlay", overlay, nil, false, "TestR")
	check("other flags", overlay, []string{"-vet=off"}, true, "TestR")
	// Another binary written at the path (its time tells).
	if err := os.Chtimes(path, time.Time{}, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	check("the binary replaced", overlay, []string{"-vet=off"}, true, "TestR")
	// The list of an unchanged binary is the one kept beside it: a binary
	// that can no longer run still lists its tests.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	b, out, err := BuildAt(path, dir, overlay, "-vet=off")
	if err != nil || b == nil {
		t.Fatalf("build: %v %s", err, out)
	}
	defer b.Remove()
	if got, err := b.TopLevel(); err != nil || strings.Join(got, " ") != "TestR" {
		t.Errorf("the kept list: tests %v (%v), want TestR without running the binary", got, err)
	}
}

// TestBuildErrorsNameTheFileStoodInFor: the compiler names a stand-in by
// its temporary copy; the build output names the file it stands in for.
func TestBuildErrorsNameTheFileStoodInFor(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module p\n\ngo 1.25\n",
		"p.go":      "package p\n\nfunc F() int { return 1 }\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) { _ = F() }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	bin, out, err := BuildAt("", dir, map[string][]byte{"p.go": []byte("package p\n\nfunc F() int { return undefinedName }\n")})
	if err != nil || bin != nil {
		t.Fatalf("want a build failure, got binary %v, error %v", bin, err)
	}
	if want := filepath.Join(dir, "p.go") + ":3:"; !strings.Contains(out, want) || strings.Contains(out, "walkthrough-overlay") {
		t.Errorf("build output names the overlay's copy, not %s:\n%s", want, out)
	}
}

// TestRepanickedNamesTheTest: a panic testing reports as the test's own
// failure and then raises again (synctest's "blocked goroutines remain"
// when a test ends) stops the binary after the test's --- FAIL line; the
// result still says which test it came from.
func TestRepanickedNamesTheTest(t *testing.T) {
	bin := buildTests(t, "package p\n\nimport (\n\t\"testing\"\n\t\"testing/synctest\"\n)\n\n"+
		"func TestFirst(t *testing.T) {}\n\n"+
		"func TestLeaves(t *testing.T) {\n\tsynctest.Test(t, func(t *testing.T) {\n\t\tgo func() { select {} }()\n\t})\n}\n\n"+
		"func TestSub(t *testing.T) {\n\tt.Run(\"inner\", TestLeaves)\n}\n")
	for run, want := range map[string]string{"TestFirst|TestLeaves": "TestLeaves", "TestSub": "TestSub/inner"} {
		res, err := bin.Run(nil, time.Minute, Idle{After: time.Minute}, "-run", run)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Crash, "blocked goroutines remain") || res.Repanicked != want {
			t.Errorf("-run %s: crash %q from %q; want synctest's blocked goroutines from %s", run, res.Crash, res.Repanicked, want)
		}
	}
}

// TestRetryLogIsNoProgress: a test that hangs while something logs the
// same line every moment, numbers aside (a client retrying against a
// server that will never answer), is stopped as stuck once the quiet
// period passes; a test that prints new lines is not.
func TestRetryLogIsNoProgress(t *testing.T) {
	bin := buildTests(t, "package p\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n\t\"time\"\n)\n\n"+
		"func TestRetries(t *testing.T) {\n\tfor i := 0; ; i++ {\n\t\tfmt.Printf(\"retry %d: connection refused\\n\", i)\n\t\ttime.Sleep(50 * time.Millisecond)\n\t}\n}\n\n"+
		"func TestSteps(t *testing.T) {\n\tfor _, s := range []string{\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\"} {\n\t\tfmt.Printf(\"step %s\\n\", s)\n\t\ttime.Sleep(200 * time.Millisecond)\n\t}\n}\n")
	res, err := bin.Run(nil, time.Second, Idle{}, "-run", "TestRetries")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Stuck, []string{"TestRetries"}) {
		t.Errorf("a test logging one line over and over: stuck %q, want TestRetries", res.Stuck)
	}
	res, err = bin.Run(nil, time.Second, Idle{}, "-run", "TestSteps")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stuck) > 0 || !res.Passed["TestSteps"] {
		t.Errorf("a test printing a new line every 200ms within a 1s quiet period: stuck %q, passed %v", res.Stuck, res.Passed["TestSteps"])
	}
}

// TestIdleAllowsAShareOfACPU: a binary on the real clock whose tests all
// hang still ticks (an etcd's raft, here a millisecond of work every
// 100ms); under Idle.Share it is stopped once Idle.After passes, long
// before its quiet period; one that computes all the while is not.
func TestIdleAllowsAShareOfACPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a process's CPU time is read from /proc")
	}
	bin := buildTests(t, "package p\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n"+
		"func spin(d time.Duration) {\n\tfor end := time.Now().Add(d); time.Now().Before(end); {\n\t}\n}\n\n"+
		"func TestTicks(t *testing.T) {\n\tfor {\n\t\tspin(time.Millisecond)\n\t\ttime.Sleep(100 * time.Millisecond)\n\t}\n}\n\n"+
		"func TestWorks(t *testing.T) {\n\tspin(3 * time.Second)\n}\n")
	idle := Idle{After: time.Second, Share: 0.05}
	start := time.Now()
	res, err := bin.Run(nil, time.Minute, idle, "-run", "TestTicks")
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); !slices.Equal(res.Stuck, []string{"TestTicks"}) || took > 30*time.Second {
		t.Errorf("a test ticking at 1%% of a CPU, idle after 1s under 5%%: stuck %q after %v, want TestTicks within seconds", res.Stuck, took)
	}
	res, err = bin.Run(nil, time.Minute, idle, "-run", "TestWorks")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stuck) > 0 || !res.Passed["TestWorks"] {
		t.Errorf("a test computing for 3s without a word, idle after 1s under 5%%: stuck %q, passed %v", res.Stuck, res.Passed["TestWorks"])
	}
}

// buildTests builds a module of its own, module p, holding p_test.go
// with this text, and returns its test binary, removed when the test ends.
func buildTests(t *testing.T, testFile string) *Binary {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.25\n", "p_test.go": testFile} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	bin, out, err := BuildAt("", dir, nil)
	if err != nil || bin == nil {
		t.Fatalf("build: %v %s", err, out)
	}
	t.Cleanup(func() { bin.Remove() })
	return bin
}

// TestRunAgainKeepsOneRunsOutput: a test run several times (-count) keeps
// the output of its first failing run only: a report confirmed in ten runs
// read ten times over in trial A, 1,600 lines for one failing step.
func TestRunAgainKeepsOneRunsOutput(t *testing.T) {
	bin := buildTests(t, "package p\n\nimport (\n\t\"sync/atomic\"\n\t\"testing\"\n)\n\n"+
		"var runs atomic.Int32\n\n"+
		"func TestAgain(t *testing.T) {\n\tn := runs.Add(1)\n\tt.Logf(\"run %d\", n)\n\tif n >= 2 {\n\t\tt.Errorf(\"failed in run %d\", n)\n\t}\n}\n")
	res, err := bin.Run(nil, time.Minute, Idle{After: time.Minute}, "-count=4")
	if err != nil {
		t.Fatal(err)
	}
	out := res.Output["TestAgain"]
	if res.Passed["TestAgain"] || res.Fails["TestAgain"] != 3 || !strings.Contains(out, "failed in run 2") || strings.Contains(out, "run 1") || strings.Contains(out, "run 3") {
		t.Errorf("passed %t, %d fails, output:\n%s\nwant 3 fails and run 2's output alone", res.Passed["TestAgain"], res.Fails["TestAgain"], out)
	}
}
