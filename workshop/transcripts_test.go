package workshop_test

import (
	"os"
	"path/filepath"
	"testing"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/transcripts"
)

// TestTranscriptsFresh keeps docs/workshop.md's transcripts true without
// replaying them (that takes about 5 minutes): the regenerating command records
// the sum of everything they depend on (the runner and the packages it
// prints through, every chapter's reference code, exercise copy,
// scenarios and blame file, and the story itself) in docs/.transcripts.sum,
// and this test fails when the sum of those files today differs. It also
// checks that every marked block of the doc and of its zh twin names
// steps of the story.
// staleAllowed: see TestTranscriptsFresh.
const staleAllowed = false

func TestTranscriptsFresh(t *testing.T) {
	root, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{transcripts.Doc, transcripts.Twin} {
		doc, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := transcripts.CheckMarkers(doc); err != nil {
			t.Errorf("%s: %v. Fix the marker, then run: %s", name, err, transcripts.Command)
		}
	}
	want, err := transcripts.Sum(root)
	if err != nil {
		t.Fatal(err)
	}
	// staleAllowed lets a stale sum be reported rather than failed, for a
	// change that must land before its replay can; keep it false.
	report := t.Errorf
	if staleAllowed {
		report = t.Skipf
	}
	switch got := transcripts.RecordedSum(root); got {
	case want:
	case "":
		report("%s records no sum: the transcripts of %s were never regenerated. Run: %s (it replays the whole story: about 5 minutes)", transcripts.SumFile, transcripts.Doc, transcripts.Command)
	default:
		report("the transcripts of %s are stale: the runner, a chapter, an exercise copy or the story changed since they were recorded (%s has sha256:%.12s, the files now sha256:%.12s). Run: %s (it replays the whole story: about 5 minutes), and check that the prose around each transcript still says what it shows",
			transcripts.Doc, transcripts.SumFile, got, want, transcripts.Command)
	}
}
