//go:build !unix

package traverse

import "os"

func mmapFile(f *os.File, size int64) ([]byte, bool) { return nil, false }

func munmap(b []byte) error { return nil }
