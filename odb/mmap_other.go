//go:build !unix

package odb

import "os"

func mmapFile(f *os.File, size int64) ([]byte, bool) { return nil, false }

func munmap(b []byte) error { return nil }
func releasePages(b []byte) {}
