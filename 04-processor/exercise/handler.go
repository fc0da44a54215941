// Your copy of ../handler.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

// ResourceEventHandler is what a caller registers with an informer: three
// callbacks, called one at a time and in order for that handler.
//
//   - OnAdd gets an object the handler has not seen yet. isInInitialList
//     is true while the informer is delivering its first list (or, for a
//     handler added late, the replay of the cache).
//   - OnUpdate gets the cached object and its replacement. Both can carry
//     the same resourceVersion: that is a resync, or a relist that found
//     nothing new.
//   - OnDelete gets the last state the informer knew, or a
//     DeletedFinalStateUnknown tombstone when the deletion was inferred
//     from a relist rather than seen on the watch.
//
// Handlers must not modify the objects they receive: the same pointers sit
// in the Indexer and are handed to every other handler.
//
// client-go: tools/cache/controller.go (ResourceEventHandler)
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs adapts plain functions to a handler. A nil
// function is a no-op, and OnAdd drops isInInitialList.
//
// client-go: tools/cache/controller.go (ResourceEventHandlerFuncs)
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs that
// keeps isInInitialList.
//
// client-go: tools/cache/controller.go (ResourceEventHandlerDetailedFuncs)
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// The three notifications a listener carries from distribute to its
// handler. They are values, not pointers: the buffer holds many of them.
//
// client-go: tools/cache/shared_informer.go (addNotification, updateNotification, deleteNotification)
type (
	addNotification struct {
		newObj          any
		isInInitialList bool
	}
	updateNotification struct {
		oldObj, newObj any
	}
	deleteNotification struct {
		oldObj any
	}
)
