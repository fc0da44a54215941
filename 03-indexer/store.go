package indexer

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
)

// ThreadSafeStore is the storage under an Indexer: objects filed by a key
// you give it, and the indexes over them, safe to use from any goroutine.
//
// It never copies objects. Everything it returns is shared with the store
// and with every other reader: treat it as read-only, and write a changed
// copy back through Update. That is why informers' caches are cheap.
//
// client-go: tools/cache/thread_safe_store.go (threadSafeMap)
type ThreadSafeStore struct {
	mu sync.RWMutex

	// items maps a key to its object. index is kept in step with items
	// (see storeIndex): both change together under mu.
	items map[string]any
	index storeIndex

	// rv is the resource version of the last write: the object's for
	// Add, Update and Delete, the list's for Replace, the bookmark's for
	// Bookmark. The informer reports it as how far its cache has got.
	rv string
}

// NewThreadSafeStore returns an empty store with the given index functions.
// A nil Indexers means none: client-go keeps the nil map, and its
// AddIndexers then panics (docs/03-indexer.md, "How client-go differs").
func NewThreadSafeStore(indexers Indexers) *ThreadSafeStore {
	// exercise:begin 3
	if indexers == nil {
		indexers = Indexers{}
	}
	return &ThreadSafeStore{
		items: map[string]any{},
		index: storeIndex{indexers: indexers, indices: Indices{}},
	}
	// exercise:end 3
}

// Update files obj under key, replacing what was there, and moves key in
// every index. Add is the same operation: a store has no "already exists".
func (s *ThreadSafeStore) Update(key string, obj any) {
	// exercise:begin 3
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.items[key]
	s.items[key] = obj
	s.index.update(key, old, obj)
	s.noteRV(obj)
	// exercise:end 3
}

// Add is Update.
func (s *ThreadSafeStore) Add(key string, obj any) { s.Update(key, obj) }

// Delete removes key and its index entries. Deleting a key that is not
// there is not an error: the caller wanted it gone, and it is. obj, if not
// nil, is the deleted object, whose resource version the store remembers.
func (s *ThreadSafeStore) Delete(key string, obj any) {
	// exercise:begin 3
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.items[key]; ok {
		s.index.update(key, old, nil)
		delete(s.items, key)
	}
	if obj != nil {
		s.noteRV(obj)
	}
	// exercise:end 3
}

// noteRV remembers obj's resource version: the last write's, even when
// it is empty (an object that never came from the server), as client-go
// does; only an object without metadata leaves the version as it was.
func (s *ThreadSafeStore) noteRV(obj any) {
	// exercise:begin 3
	if m, err := meta.Accessor(obj); err == nil {
		s.rv = m.GetResourceVersion()
	}
	// exercise:end 3
}

// Get returns the object filed under key.
func (s *ThreadSafeStore) Get(key string) (any, bool) {
	// exercise:begin 3
	s.mu.RLock()
	defer s.mu.RUnlock()
	obj, ok := s.items[key]
	return obj, ok
	// exercise:end 3
}

// List returns every object, in no particular order.
func (s *ThreadSafeStore) List() []any {
	// exercise:begin 3
	s.mu.RLock()
	defer s.mu.RUnlock()
	list := make([]any, 0, len(s.items))
	for _, obj := range s.items {
		list = append(list, obj)
	}
	return list
	// exercise:end 3
}

// ListKeys returns every key, in no particular order.
func (s *ThreadSafeStore) ListKeys() []string {
	// exercise:begin 3
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys := make([]string, 0, len(s.items))
	for key := range s.items {
		keys = append(keys, key)
	}
	return keys
	// exercise:end 3
}

// Replace swaps the whole content for items, at resource version rv. The
// reflector calls it with the result of a LIST: whatever is not in the new
// list is gone. The store takes ownership of items.
func (s *ThreadSafeStore) Replace(items map[string]any, rv string) {
	// exercise:begin 9 Replace everything and rebuild the indexes
	// exercise:hint Under the write lock, take items as the new content and remember rv. The old
	//   indexes describe objects that may be gone: start every index afresh and index each new
	//   item.
	// exercise:deeper s.index.indices = Indices{} drops every built index but keeps the index
	//   functions; s.index.update(key, nil, obj) indexes one item.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = items
	s.rv = rv
	s.index.indices = Indices{}
	for key, obj := range s.items {
		s.index.update(key, nil, obj)
	}
	// exercise:end 9
}

// Index returns the objects that share an index value with obj in the
// index called name ("every pod on the same node as this one").
func (s *ThreadSafeStore) Index(name string, obj any) ([]any, error) {
	// exercise:begin 6
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, err := s.index.keysMatching(name, obj)
	if err != nil {
		return nil, err
	}
	return s.objects(keys), nil
	// exercise:end 6
}

// ByIndex returns the objects indexed under value in the index called name.
func (s *ThreadSafeStore) ByIndex(name, value string) ([]any, error) {
	// exercise:begin 6
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, err := s.index.keysFor(name, value)
	if err != nil {
		return nil, err
	}
	return s.objects(keys), nil
	// exercise:end 6
}

// objects looks up the objects of a key set. The caller holds the lock.
func (s *ThreadSafeStore) objects(keys keySet) []any {
	// exercise:begin 6
	list := make([]any, 0, len(keys))
	for key := range keys {
		list = append(list, s.items[key])
	}
	return list
	// exercise:end 6
}

// IndexKeys returns the keys indexed under value in the index called name,
// sorted, so callers get a stable answer from a map-backed index.
//
// client-go: tools/cache/thread_safe_store.go (threadSafeMap.IndexKeys)
func (s *ThreadSafeStore) IndexKeys(name, value string) ([]string, error) {
	// exercise:begin 6
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, err := s.index.keysFor(name, value)
	if err != nil {
		return nil, err
	}
	// Never nil: "no keys" is an answer, not a missing one.
	list := slices.AppendSeq(make([]string, 0, len(keys)), maps.Keys(keys))
	slices.Sort(list)
	return list, nil
	// exercise:end 6
}

// ListIndexFuncValues returns the values in use in the index called name,
// in no particular order; none for an index that does not exist.
func (s *ThreadSafeStore) ListIndexFuncValues(name string) []string {
	// exercise:begin 6
	s.mu.RLock()
	defer s.mu.RUnlock()
	idx := s.index.indices[name]
	return slices.AppendSeq(make([]string, 0, len(idx)), maps.Keys(idx))
	// exercise:end 6
}

// GetIndexers returns the store's index functions. The map is the store's
// own: do not change it; use AddIndexers.
func (s *ThreadSafeStore) GetIndexers() Indexers {
	return s.index.indexers
}

// AddIndexers adds index functions and indexes every object already in
// the store under them, so an index added late answers like one that was
// there from the start. A name that already exists is refused: silently
// replacing an index function would leave its index built by the old one.
func (s *ThreadSafeStore) AddIndexers(indexers Indexers) error {
	// exercise:begin 10 Add an index to a store that already has objects
	// exercise:hint First refuse any name that already exists, with the error "indexer conflict:
	//   map[name:{}]" (all clashing names, sorted). Then add the functions and index every stored
	//   object under each new index only.
	// exercise:deeper conflictError(names), yours too, sorts the names and prints them as client-go
	//   prints a set. s.index.updateOne(name, key, nil, obj) indexes one object under one index.
	s.mu.Lock()
	defer s.mu.Unlock()
	var clash []string
	for name := range indexers {
		if _, ok := s.index.indexers[name]; ok {
			clash = append(clash, name)
		}
	}
	if len(clash) > 0 {
		return conflictError(clash)
	}
	for name, fn := range indexers {
		s.index.indexers[name] = fn
	}
	for key, obj := range s.items {
		for name := range indexers {
			s.index.updateOne(name, key, nil, obj)
		}
	}
	return nil
	// exercise:end 10
}

// conflictError reports index names that already exist, worded and
// ordered as client-go prints its set: "indexer conflict: map[a:{} b:{}]".
func conflictError(names []string) error {
	// exercise:begin 10
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ":{}"
	}
	return fmt.Errorf("indexer conflict: map[%s]", strings.Join(parts, " "))
	// exercise:end 10
}

// LastStoreSyncResourceVersion is the resource version of the last write
// (see the rv field).
func (s *ThreadSafeStore) LastStoreSyncResourceVersion() string {
	// exercise:begin 3
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv
	// exercise:end 3
}

// Bookmark records that the cache is current up to rv although no object
// changed: a watch bookmark moves the cache forward without an event.
func (s *ThreadSafeStore) Bookmark(rv string) {
	// exercise:begin 3
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv = rv
	// exercise:end 3
}
