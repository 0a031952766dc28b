package frame

import "sync"

// cache keeps the results of expensive work (replays) by key: at most max
// entries, the least recently used dropped first. Concurrent requests for
// a key being computed wait for that computation instead of repeating it.
type cache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	tick    int
	entries map[K]*entry[V]
}

type entry[V any] struct {
	done chan struct{}
	v    V
	err  error
	used int
}

func newCache[K comparable, V any](max int) *cache[K, V] {
	return &cache[K, V]{max: max, entries: map[K]*entry[V]{}}
}

// get returns the value for k, computing it with fill when it is not
// cached. A failed computation is not kept.
func (c *cache[K, V]) get(k K, fill func() (V, error)) (V, error) {
	c.mu.Lock()
	c.tick++
	if e, ok := c.entries[k]; ok {
		e.used = c.tick
		c.mu.Unlock()
		<-e.done
		return e.v, e.err
	}
	e := &entry[V]{done: make(chan struct{}), used: c.tick}
	c.entries[k] = e
	if len(c.entries) > c.max {
		var oldest K
		first := true
		for key, x := range c.entries {
			if key == k {
				continue
			}
			if first || x.used < c.entries[oldest].used {
				oldest, first = key, false
			}
		}
		if !first {
			delete(c.entries, oldest)
		}
	}
	c.mu.Unlock()
	e.v, e.err = fill()
	close(e.done)
	if e.err != nil {
		c.mu.Lock()
		if c.entries[k] == e {
			delete(c.entries, k)
		}
		c.mu.Unlock()
	}
	return e.v, e.err
}
