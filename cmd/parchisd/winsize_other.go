//go:build !(linux || darwin)

package main

import "os"

// windowColumns cannot ask the terminal here: 0.
func windowColumns(*os.File) int { return 0 }
