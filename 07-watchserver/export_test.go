package watchserver

// FedByHand returns a cache with its dispatcher running and no Reflector:
// the test plays the Reflector, calling Replace and Add itself, so that it
// controls exactly which events arrive while watches start. stop closes
// every watcher and ends the dispatcher.
func FedByHand(opts CacheOptions) (c *Cache, stop func()) {
	c = NewCache(&Storage{}, opts)
	dispatcher := make(chan struct{})
	go func() { defer close(dispatcher); c.dispatchLoop() }()
	return c, func() {
		c.terminateAll()
		close(c.incoming)
		<-dispatcher
	}
}
