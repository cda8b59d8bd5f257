// SPDX-License-Identifier: GPL-2.0-or-later
// goguest: a Go program built by Go's own toolchain for linux/arm64 and
// linux/arm (issue "Real programs, part 3", items 1 and 4): goroutines on
// several threads, a mutex, and recover() from a nil dereference, which
// needs the exact PC of the fault (Go looks the faulting PC up in its
// tables and dies with "unknown caller pc" at any other).
package main

import (
	"fmt"
	"runtime"
	"sync"
)

type node struct{ next *node }

func nilDeref() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var n *node
	return fmt.Errorf("not reached: %p", n.next)
}

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			s := 0
			for j := 0; j < 100000; j++ {
				s += j % (n + 1)
			}
			mu.Lock()
			sum += s
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	fmt.Println("goroutines:", sum)
	fmt.Println("recovered:", nilDeref())
	fmt.Println("GOARCH:", runtime.GOARCH)
}
