//go:build unix

package gotest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fakeGo puts a go command on PATH whose list names one package and whose
// build runs build (a shell command line), writing its arguments first.
func fakeGo(t *testing.T, build string) (argsFile string) {
	t.Helper()
	bin := t.TempDir()
	argsFile = filepath.Join(bin, "args")
	script := "#!/bin/sh\ncase \"$1\" in\n" +
		"list) printf 'example.com/dep\\tfalse\\nexample.com/own\\ttrue\\nexample.com/own [example.com/own.test]\\ttrue\\nexample.com/dep [example.com/own.test]\\tfalse\\nexample.com/own.test\\t\\n';;\n" +
		"build) echo \"$@\" > " + argsFile + "; " + build + ";;\nesac\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argsFile
}

func TestStopWarmStopsABuildThatRuns(t *testing.T) {
	fakeGo(t, "exec sleep 3600")
	marker := filepath.Join(t.TempDir(), "chapter.test.warm")
	if err := Warm(t.TempDir(), marker, "-race"); err != nil {
		t.Fatal(err)
	}
	stopped, finished := StopWarm(marker)
	if !stopped || finished {
		t.Fatalf("StopWarm = stopped %t, finished %t; want a running build stopped", stopped, finished)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("the marker outlived the build it names: %v", err)
	}
	if stopped, finished := StopWarm(marker); stopped || finished {
		t.Errorf("StopWarm again = stopped %t, finished %t; want nothing to stop", stopped, finished)
	}
}

func TestStopWarmSaysAFinishedBuildFinished(t *testing.T) {
	args := fakeGo(t, "true")
	marker := filepath.Join(t.TempDir(), "chapter.test.warm")
	if err := Warm(t.TempDir(), marker, "-tags=x", "-race"); err != nil {
		t.Fatal(err)
	}
	// The build holds the marker's lock until it exits: wait for that.
	f, err := os.Open(marker)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if stopped, finished := StopWarm(marker); stopped || !finished {
		t.Fatalf("StopWarm = stopped %t, finished %t; want a finished build", stopped, finished)
	}
	got, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	// The dependencies only: not the workspace's packages, not test variants.
	if want := "build -tags=x -race example.com/dep\n"; string(got) != want {
		t.Errorf("the build ran as %q, want %q", got, want)
	}
}
