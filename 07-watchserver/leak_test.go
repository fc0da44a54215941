package watchserver_test

import (
	"flag"
	"fmt"
	"testing"

	"go.etcd.io/etcd/server/v3/storage/wal"

	"example.com/walkthrough/workshop/leak"
)

// sideBySide is how many tests marked parallel run at once unless
// -test.parallel says otherwise. This chapter's tests wait on real clocks
// (watch timeouts, etcd) far more than they compute, so go test's default,
// one per CPU, would leave a small machine idle most of the run. 64 runs
// nearly every test at once: on 2 cores the warm run took a median 8.2 s
// (9.8 s with 32, 63 s with 2) for a peak RSS of 960 MB (710 MB with 32).
const sideBySide = 64

// TestMain fails the run if a goroutine of the code under test outlives
// the tests: every cache, watcher, server and etcd member must stop.
func TestMain(m *testing.M) {
	benchServer() // a child started as our server for the benchmarks: serves, then exits
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", fmt.Sprint(sideBySide)); err != nil {
			panic(err)
		}
	}
	// Before any test: the reference and the exercise copy both set it
	// (StartEmbedded) and would race with each other's etcd reading it.
	wal.SegmentSizeBytes = 4 << 20
	leak.VerifyTestMain(m)
}
