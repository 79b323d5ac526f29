//go:build goblame_sysmap

package cli

// sysMapKeepsAdvice: make build's runtime maps the heap's reserved
// memory with mprotect, which keeps a madvise made on it before
// (tools/runtimepatch; make build sets the tag where the patch applied).
const sysMapKeepsAdvice = true
