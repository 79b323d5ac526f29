//go:build !unix

package traverse

import "github.com/goblame/goblame/internal/fsread"

func mmapFile(f *fsread.File, size int64) ([]byte, bool) { return nil, false }

func munmap(b []byte) error { return nil }
