package watchserver_test

import (
	"testing"

	"example.com/walkthrough/workshop/leak"
)

// TestMain fails the run if a goroutine of the code under test outlives
// the tests: every cache, watcher, server and etcd member must stop.
func TestMain(m *testing.M) { leak.VerifyTestMain(m) }
