package deltafifo_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	ours "example.com/walkthrough/02-deltafifo"
)

// TestProcessRunsUnderTheQueuesLock: Pop calls process with the queue's
// lock held, as client-go's does, so no write, Replace or Close lands
// between taking a key off the queue and handling it: the DeltaFIFO
// always, the RealFIFO unless UnlockWhileProcessing lets producers in
// (TestUnlockWhileProcessingLetsProducersIn). It asks our package (your
// copy, under the runner) from inside process: client-go keeps its lock
// to itself.
func TestProcessRunsUnderTheQueuesLock(t *testing.T) {
	for _, c := range []struct {
		name string
		q    interface {
			Add(obj any) error
			Pop(process ours.PopProcessFunc) (any, error)
			LockHeld() bool
		}
	}{
		{"DeltaFIFO", ours.NewDeltaFIFOWithOptions(ours.DeltaFIFOOptions{})},
		{"RealFIFO", ours.NewRealFIFOWithOptions(ours.RealFIFOOptions{AtomicEvents: true})},
	} {
		t.Run(c.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", ResourceVersion: "1"}}
			if err := c.q.Add(pod); err != nil {
				t.Fatal(err)
			}
			held := false
			if _, err := c.q.Pop(func(any, bool) error { held = c.q.LockHeld(); return nil }); err != nil {
				t.Fatal(err)
			}
			if !held {
				t.Errorf("the %s's Pop called process without the queue's lock: a write could land "+
					"between taking the key and handling it. Keep the lock from the wait to process's return", c.name)
			}
		})
	}
}
