package controller_test

import (
	"context"
	"testing"
	"testing/synctest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/wiring/ours"
)

// TestWiringNamespace: with Options.Namespace (the controller's
// -namespace flag) both informers list and watch that namespace only,
// through chapter 04's WithNamespace, so Rollouts elsewhere are never
// cached, neither those listed first nor those created later.
func TestWiringNamespace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := fakeapi.New(nil)
		create := func(ns, name string) {
			r := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
			if _, err := api.Walk.WalkthroughV1alpha1().Rollouts(ns).Create(context.Background(), r, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		create("mine", "listed")
		create("other", "listed")

		w := ours.New(api.Kube, api.Walk, ours.Options{Namespace: "mine"})
		ctx, cancel := context.WithCancel(context.Background())
		w.Start(ctx)
		synctest.Wait()
		create("mine", "watched")
		create("other", "watched")
		synctest.Wait()

		for _, c := range []struct {
			ns, name string
			want     bool
		}{{"mine", "listed", true}, {"mine", "watched", true}, {"other", "listed", false}, {"other", "watched", false}} {
			_, err := w.Rollouts().Get(c.ns, c.name)
			if got := err == nil; got != c.want {
				t.Errorf("%s/%s cached: %t, want %t (err %v)", c.ns, c.name, got, c.want, err)
			}
		}
		cancel()
		w.Shutdown()
		w.Queue().ShutDown()
	})
}
