package main

import (
	"bytes"
	"strings"
	"testing"
)

// These check the command line only; package runner's tests drive the
// commands themselves over a copy of the workspace.

func TestHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, &out, &errOut); code != 0 {
		t.Fatalf("help exited %d: %s", code, errOut.String())
	}
	for _, cmd := range []string{"status", "check [CH] [EX]", "hint CH EX", "watch", "reset CH [EX]", "solution CH EX", "--mine"} {
		if !strings.Contains(out.String(), cmd) {
			t.Errorf("help does not mention %q", cmd)
		}
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if len(line) > 80 {
			t.Errorf("help line wider than 80 columns: %q", line)
		}
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"hint", "03"},
		{"solution"},
		{"reset"},
		{"check", "03", "one"},
		{"hint", "03", "0"},
		{"frobnicate"},
		{"status", "--colour"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code == 0 {
			t.Errorf("%q exited 0", args)
		}
		if errOut.Len() == 0 {
			t.Errorf("%q said nothing on stderr", args)
		}
	}
}

func TestFlagsAnywhere(t *testing.T) {
	// An unknown chapter fails after the flags are read, wherever they are.
	for _, args := range [][]string{
		{"--mine", "hint", "99", "1"},
		{"hint", "99", "1", "--mine"},
		{"--poll", "1s", "hint", "99", "1"},
	} {
		var out, errOut bytes.Buffer
		run(args, &out, &errOut)
		if !strings.Contains(errOut.String(), `no chapter "99"`) {
			t.Errorf("%q: %s", args, errOut.String())
		}
	}
}
