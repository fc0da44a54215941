// Package fakeapi is the in-process "cluster" the scenarios and make demo
// run on: client-go's fake clientsets, with a reactor in front that makes
// them act a little more like a real API server.
//
// client-go's fake object tracker stores objects as they are sent: it
// assigns no resourceVersion, UID or generation, and an update of the
// status subresource replaces the whole object. A controller that skips
// same-resourceVersion updates, or matches owners by UID, needs all of
// those, so the reactor adds them:
//
//   - every create and update gets the next resourceVersion, one counter
//     for both clientsets, as one etcd would give;
//   - a create gets a UID and generation 1;
//   - an update of the main resource keeps the stored status and bumps
//     the generation when the spec changed; an update of the status
//     subresource changes only the status.
package fakeapi

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	walkfake "example.com/walkthrough/06-controller/pkg/generated/clientset/versioned/fake"
)

// Write is one create or update the fake API server handled.
type Write struct {
	Verb        string // "create" or "update"
	Subresource string // "" or "status"
	Object      runtime.Object
	// FieldManager is the writer's field manager; the controller sets
	// one, so its writes can be told from a user's.
	FieldManager string
	Err          error
}

// Server is a pair of fake clientsets behind one fake API server.
type Server struct {
	Kube *kubefake.Clientset
	Walk *walkfake.Clientset

	mu      sync.Mutex
	rv, uid int
	onWrite func(Write)
}

// New makes the fake API server. onWrite, when not nil, hears every
// create and update after it was applied (or refused).
func New(onWrite func(Write)) *Server {
	s := &Server{
		Kube:    kubefake.NewSimpleClientset(),
		Walk:    walkfake.NewSimpleClientset(),
		onWrite: onWrite,
	}
	s.Kube.PrependReactor("*", "*", s.react(s.Kube.Tracker()))
	s.Walk.PrependReactor("*", "*", s.react(s.Walk.Tracker()))
	return s
}

func (s *Server) react(tracker k8stesting.ObjectTracker) k8stesting.ReactionFunc {
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		var obj runtime.Object
		var w Write
		switch a := action.(type) {
		case k8stesting.CreateActionImpl:
			m, err := meta.Accessor(a.Object)
			if err != nil {
				return false, nil, nil
			}
			s.mu.Lock()
			s.uid++
			m.SetUID(types.UID(fmt.Sprintf("uid-%d", s.uid)))
			s.mu.Unlock()
			m.SetGeneration(1)
			obj, w = a.Object, Write{Verb: "create", FieldManager: a.CreateOptions.FieldManager}
		case k8stesting.UpdateActionImpl:
			merged, err := merge(tracker, action.GetResource(), action.GetSubresource(), a.Object)
			if err != nil {
				return true, nil, err
			}
			a.Object = merged
			action, obj = a, merged
			w = Write{Verb: "update", Subresource: a.GetSubresource(), FieldManager: a.UpdateOptions.FieldManager}
		default:
			return false, nil, nil
		}
		m, _ := meta.Accessor(obj)
		s.mu.Lock()
		s.rv++
		m.SetResourceVersion(strconv.Itoa(s.rv))
		s.mu.Unlock()
		_, ret, err := k8stesting.ObjectReaction(tracker)(action)
		w.Object, w.Err = obj, err
		if s.onWrite != nil {
			s.onWrite(w)
		}
		return true, ret, err
	}
}

// merge builds what a real API server would store for an update.
func merge(tracker k8stesting.ObjectTracker, gvr schema.GroupVersionResource, sub string, obj runtime.Object) (runtime.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return obj, nil
	}
	stored, err := tracker.Get(gvr, m.GetNamespace(), m.GetName())
	if err != nil {
		return nil, err
	}
	switch old := stored.(type) {
	case *v1alpha1.Rollout:
		next := obj.(*v1alpha1.Rollout).DeepCopy()
		if sub == "status" {
			merged := old.DeepCopy()
			merged.Status = next.Status
			return merged, nil
		}
		next.Status, next.UID, next.Generation = old.Status, old.UID, old.Generation
		if !reflect.DeepEqual(old.Spec, next.Spec) {
			next.Generation++
		}
		return next, nil
	case *appsv1.Deployment:
		next := obj.(*appsv1.Deployment).DeepCopy()
		if sub == "status" {
			merged := old.DeepCopy()
			merged.Status = next.Status
			return merged, nil
		}
		next.Status, next.UID, next.Generation = old.Status, old.UID, old.Generation
		if !reflect.DeepEqual(old.Spec, next.Spec) {
			next.Generation++
		}
		return next, nil
	}
	return obj, nil
}
