// Your copy of ../selector.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"fmt"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/todo"
)

// Selector is what a LIST or WATCH asks for with labelSelector and
// fieldSelector. The zero Selector matches everything.
//
// A watch with a selector cannot just drop the events of objects that do
// not match: an update can move an object into the selection or out of it.
// So each update is judged twice, on the object before and after:
//
//	before  after   the watcher gets
//	match   match   MODIFIED
//	no      match   ADDED: the object entered the selection
//	match   no      DELETED, with the object as it was: it left
//	no      no      nothing
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go
// (cacheWatcher.convertToWatchEvent),
// k8s.io/apiserver/pkg/storage/selection_predicate.go (SelectionPredicate).
type Selector struct {
	Labels labels.Selector // nil: every label set
	Fields fields.Selector // nil: every object
}

// metaFields are the field selector keys every resource here has, as any
// resource of kube-apiserver's generic registry has (ConfigMaps and Leases
// add none: DefaultNamespaceScopedAttr).
var metaFields = []string{"metadata.name", "metadata.namespace"}

// ParseSelector reads labelSelector and fieldSelector from a request. A
// selector that does not parse, or a field the resource does not have, is a
// 400 Bad Request.
func ParseSelector(q url.Values) (Selector, error) {
	if q.Get("labelSelector") == "" && q.Get("fieldSelector") == "" {
		return Selector{}, nil
	}
	var s Selector
	if v := q.Get("labelSelector"); v != "" {
		sel, err := labels.Parse(v)
		if err != nil {
			return Selector{}, apierrors.NewBadRequest(err.Error())
		}
		s.Labels = sel
	}
	if v := q.Get("fieldSelector"); v != "" {
		sel, err := fields.ParseSelector(v)
		if err != nil {
			return Selector{}, apierrors.NewBadRequest(err.Error())
		}
		for _, r := range sel.Requirements() {
			if r.Field != metaFields[0] && r.Field != metaFields[1] {
				return Selector{}, apierrors.NewBadRequest(fmt.Sprintf("%q is not a known field selector: only %q, %q", r.Field, metaFields[0], metaFields[1]))
			}
		}
		s.Fields = sel
	}
	return s, nil
}

// Matches reports whether obj is selected.
func (s Selector) Matches(obj runtime.Object) bool {
	if s.Empty() {
		return true
	}
	m := accessor(obj)
	if s.Labels != nil && !s.Labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if s.Fields != nil && !s.Fields.Matches(fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}) {
		return false
	}
	return true
}

// Empty reports whether s selects everything.
func (s Selector) Empty() bool {
	return (s.Labels == nil || s.Labels.Empty()) && (s.Fields == nil || s.Fields.Empty())
}

// See returns ev as a watcher with this selector sees it, and false when
// it sees nothing of it.
func (s Selector) See(ev Event) (Event, bool) {
	if s.Empty() {
		return ev, true
	}
	switch ev.Type {
	case watch.Added, watch.Deleted:
		return ev, s.Matches(ev.Object)
	case watch.Modified:
		now := s.Matches(ev.Object)
		before := ev.Prev != nil && s.Matches(ev.Prev)
		switch {
		case now && before:
			return ev, true
		case now:
			ev.Type = watch.Added
			return ev, true
		case before:
			gone := ev.Prev.DeepCopyObject()
			accessor(gone).SetResourceVersion(formatRV(ev.RV))
			return Event{Type: watch.Deleted, Object: gone, RV: ev.RV}, true
		}
		return Event{}, false
	}
	return ev, true
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Sprintf
	_ = apierrors.NewBadRequest
	_ = watch.Added
)
