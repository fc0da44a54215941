package progress

import (
	"strings"
	"testing"
)

// TestHarnessFramesAreNamed: the frames of the chapter's test files, under
// a panic in your copy, fold into one line that names them the test
// harness (trial X took adapter_reference_test.go for the reference
// running); your frames keep their place and path.
func TestHarnessFramesAreNamed(t *testing.T) {
	k := testCode()
	report := "  Panic:    runtime error: index out of range [0] with length 0\n" +
		"            example.com/walkthrough/03-indexer.(*ThreadSafeStore).List(0xc000123220)\n" +
		"              /w/03-indexer/store.go:224 +0x61d\n" +
		"            example.com/walkthrough/03-indexer_test.init.1.func3.1(0xc00008da00)\n" +
		"              /w/03-indexer/adapter_reference_test.go:62 +0x122\n" +
		"            example.com/walkthrough/03-indexer_test.(*driver).list(0xc00008d200)\n" +
		"              /w/03-indexer/scenario_test.go:105 +0x212\n" +
		"            example.com/walkthrough/03-indexer_test.(*driver).cmd.func1()\n" +
		"              /w/03-indexer/scenario_test.go:54 +0x16f\n" +
		"            created by example.com/walkthrough/03-indexer_test.(*driver).async in goroutine 422\n" +
		"              /w/03-indexer/scenario_test.go:86 +0x15d\n" +
		"  Blame:    Exercise 6"
	want := "  Panic:    runtime error: index out of range [0] with length 0\n" +
		"            example.com/walkthrough/03-indexer.(*ThreadSafeStore).List(0xc000123220)\n" +
		"              03-indexer/exercise/store.go:224 +0x61d\n" +
		"            test harness (it runs your copy): adapter_reference_test.go:62,\n" +
		"              scenario_test.go:105 and 2 more\n" +
		"  Blame:    Exercise 6"
	if got := k.s.translate(report); got != want {
		t.Errorf("translate:\n%s\nwant:\n%s", got, want)
	}
	// A test file of another directory, and a lone location, stay as
	// they are.
	for _, keep := range []string{
		"example.com/walkthrough/01-listwatch_test.f()\n\t/w/01-listwatch/x_test.go:3 +0x1",
		"\t/w/03-indexer/x_test.go:3 +0x1",
	} {
		if got := k.s.translate(keep); got != keep {
			t.Errorf("translate(%q) = %q", keep, got)
		}
	}
	if got := k.s.translate("example.com/walkthrough/03-indexer_test.f()\n\t/w/03-indexer/x_test.go:3 +0x1"); !strings.HasPrefix(got, "test harness") {
		t.Errorf("a goroutine dump's frame: %q", got)
	}
}
