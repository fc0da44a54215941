//go:build !ours

package main

import (
	"context"
	"errors"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
)

// onOurServer says the embedded API server is chapter 07's.
const onOurServer = false

// serverStages are the stages this build's embedded server traces: the
// fake one traces none (chapter 07's does: servertrace.go).
var serverStages []string

// embedded is the world on client-go's fake clientsets, in this process:
// no server, no wire, and a status update it can make conflict on cue.
// (Built without the ours tag; make demo SERVER=ours builds with it.)
func embedded(context.Context) (*world, error) {
	api := fakeapi.New(nil)
	w := &world{kube: api.Kube, walk: api.Walk, ns: "demo", where: "the embedded API server (client-go fake clientsets, in this process)"}
	var once sync.Once
	w.injectCo = func() {
		armed := true
		once.Do(func() {
			api.Walk.PrependReactor("update", "rollouts", func(a k8stesting.Action) (bool, runtime.Object, error) {
				if !armed || a.GetSubresource() != "status" {
					return false, nil, nil
				}
				armed = false
				m, _ := meta.Accessor(a.(k8stesting.UpdateAction).GetObject())
				return true, nil, apierrors.NewConflict(v1alpha1.Resource("rollouts"), m.GetName(), errors.New("the object has been modified"))
			})
		})
	}
	return w, nil
}
