//go:build !unix

package blamecache

const (
	syscallNoFollow = 0
	syscallNonBlock = 0
)
