package lwscenario

import (
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario/notation"
)

// Scripted is the backend of chapter 01's own runs: the scripted test
// server, inside a synctest bubble, where a step is over once every
// goroutine waits.
type Scripted struct {
	srv  *testserver.Server
	pods *testserver.Collection
}

func (s *Scripted) Serve(opts testserver.Options, tr *notation.Trace) error {
	opts.OnRequest = func(r testserver.Request) { tr.Add("%s", r) }
	s.srv = testserver.New(opts)
	s.pods = s.srv.Serve(testserver.Pods)
	return nil
}

func (s *Scripted) Write(verb string, pod *v1.Pod) (string, error) {
	if verb == "update" {
		return s.pods.Update(pod)
	}
	return s.pods.Create(pod)
}

func (s *Scripted) Delete(ns, name string) (string, error) { return s.pods.Delete(ns, name) }
func (s *Scripted) Objects() []string                      { return s.pods.Keys() }
func (s *Scripted) DropWatches()                           { s.srv.DropWatches() }
func (s *Scripted) RV(rv string) string                    { return rv }
func (s *Scripted) Scripted() *testserver.Server           { return s.srv }

func (s *Scripted) Fail(f testserver.Fault) error {
	s.srv.FailNext(f)
	return nil
}

func (s *Scripted) SendError(code int32, reason metav1.StatusReason, message string) {
	s.srv.SendError(code, reason, message)
}

// Advance sleeps in the bubble: its fake clock moves on at once.
func (s *Scripted) Advance(d time.Duration) { time.Sleep(d) }

// Await waits until every goroutine of the bubble waits: the step's
// effects are all in, and time stands still until the next advance.
func (s *Scripted) Await(_ string, show func() string) string {
	synctest.Wait()
	return show()
}

// newStore is the store a Reflector writes into: chapter 03's.
func newStore() indexer.Store { return indexer.NewStore(indexer.MetaNamespaceKeyFunc) }
