// Your copy of ../indexer.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 03`
// checks your work, and `go run ./workshop/cmd/workshop hint 03 N` gives
// exercise N's hint.

package indexer

import "example.com/walkthrough/workshop/todo"

// Store is the interface informers write to and controllers read from:
// objects in, objects out, with the key computed for you.
//
// client-go: tools/cache/store.go (Store)
type Store interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	List() []any
	ListKeys() []string
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)

	// Replace makes the content exactly list, at resource version rv.
	Replace(list []any, rv string) error

	// Resync has nothing to do for a plain store; queues that hold
	// pending work (chapter 02) use it to re-deliver what they hold.
	Resync() error
}

// Indexer is a Store with secondary indexes.
//
// client-go: tools/cache/index.go (Indexer)
type Indexer interface {
	Store
	Index(indexName string, obj any) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ListIndexFuncValues(indexName string) []string
	ByIndex(indexName, indexedValue string) ([]any, error)
	GetIndexers() Indexers
	AddIndexers(newIndexers Indexers) error

	// LastStoreSyncResourceVersion is how far the cache has got.
	LastStoreSyncResourceVersion() string
	Bookmark(rv string)
}

// cache is the Indexer: a ThreadSafeStore plus the key function that
// turns objects into keys. All locking is the store's.
//
// client-go: tools/cache/store.go (cache)
type cache struct {
	store   *ThreadSafeStore
	keyFunc KeyFunc
}

// NewIndexer returns an empty Indexer that files objects by keyFunc and
// keeps the given indexes.
//
// client-go: tools/cache/store.go (NewIndexer)
func NewIndexer(keyFunc KeyFunc, indexers Indexers) Indexer {
	return &cache{store: NewThreadSafeStore(indexers), keyFunc: keyFunc}
}

// NewStore returns an empty Store without indexes.
//
// client-go: tools/cache/store.go (NewStore)
func NewStore(keyFunc KeyFunc) Store {
	return NewIndexer(keyFunc, Indexers{})
}

// key runs the key function, wrapping its error so the caller sees the
// object that could not be keyed.
func (c *cache) key(obj any) (string, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

func (c *cache) Add(obj any) error { return c.Update(obj) }

// Update stores obj under its key, replacing what was there, and updates
// the indexes. Add is the same.
func (c *cache) Update(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.store.Update(key, obj)
	return nil
}

// Delete removes obj's key from the store and its entries from the
// indexes.
func (c *cache) Delete(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.store.Delete(key, obj)
	return nil
}

// Get looks an object up by the key of obj.
func (c *cache) Get(obj any) (any, bool, error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	return c.GetByKey(key)
}

// GetByKey never fails: a key is just a string to look up.
func (c *cache) GetByKey(key string) (any, bool, error) {
	obj, ok := c.store.Get(key)
	return obj, ok, nil
}

// Replace keys every object before touching the store, so a list with one
// object that cannot be keyed leaves the cache as it was.
func (c *cache) Replace(list []any, rv string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, err := c.key(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	c.store.Replace(items, rv)
	return nil
}

func (c *cache) Resync() error { return nil }

func (c *cache) List() []any        { return c.store.List() }
func (c *cache) ListKeys() []string { return c.store.ListKeys() }

func (c *cache) Index(indexName string, obj any) ([]any, error) {
	return c.store.Index(indexName, obj)
}

func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.store.IndexKeys(indexName, indexedValue)
}

func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.store.ListIndexFuncValues(indexName)
}

func (c *cache) ByIndex(indexName, indexedValue string) ([]any, error) {
	return c.store.ByIndex(indexName, indexedValue)
}

func (c *cache) GetIndexers() Indexers                  { return c.store.GetIndexers() }
func (c *cache) AddIndexers(newIndexers Indexers) error { return c.store.AddIndexers(newIndexers) }
func (c *cache) LastStoreSyncResourceVersion() string   { return c.store.LastStoreSyncResourceVersion() }
func (c *cache) Bookmark(rv string)                     { c.store.Bookmark(rv) }

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
