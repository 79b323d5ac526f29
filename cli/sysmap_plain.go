//go:build !goblame_sysmap

package cli

// sysMapKeepsAdvice: the runtime as it is maps the heap's reserved
// memory with mmap, which drops a madvise made on it before.
const sysMapKeepsAdvice = false
