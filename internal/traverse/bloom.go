package traverse

import (
	"bytes"
	"math/bits"
)

// Seeds of the two murmur3 hashes a changed-path key is made of (bloom.c;
// the format document misprints the second one).
const (
	bloomSeed0 = 0x293ae76f
	bloomSeed1 = 0x7e646e2c
)

// murmur3 is the 32-bit x86 variant of MurmurHash3 as git's bloom.c
// computes it. With signExtend set, every byte is first widened as a C
// "signed char" would be on x86-64 (0xC3 becomes 0xFFFFFFC3) before being
// shifted into its word: that is what version 1 filters written by git on
// x86, x86-64, Windows and macOS hold for paths with bytes >= 0x80. Without
// it the function is true murmur3, which version 2 filters (and version 1
// filters written where char is unsigned, such as Linux on arm64) use.
func murmur3(seed uint32, data []byte, signExtend bool) uint32 {
	const (
		c1 = 0xcc9e2d51
		c2 = 0x1b873593
		n  = 0xe6546b64
	)
	widen := func(b byte) uint32 {
		if signExtend {
			return uint32(int32(int8(b)))
		}
		return uint32(b)
	}
	h := seed
	nblocks := len(data) / 4
	for i := 0; i < nblocks; i++ {
		b := data[4*i : 4*i+4]
		k := widen(b[0]) | widen(b[1])<<8 | widen(b[2])<<16 | widen(b[3])<<24
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)*5 + n
	}
	tail := data[4*nblocks:]
	var k1 uint32
	switch len(tail) {
	case 3:
		k1 ^= widen(tail[2]) << 16
		fallthrough
	case 2:
		k1 ^= widen(tail[1]) << 8
		fallthrough
	case 1:
		k1 ^= widen(tail[0])
		k1 *= c1
		k1 = bits.RotateLeft32(k1, 15)
		k1 *= c2
		h ^= k1
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// bloomHash is one hashed string: the base hashes h0, h1 from which the
// k filter positions h0 + i*h1 derive, in both byte interpretations.
type bloomHash struct {
	h0, h1   uint32 // true murmur3 (version 2; version 1 for ASCII strings)
	s0, s1   uint32 // sign-extended bytes (version 1 as git writes it on x86-64)
	highBits bool   // the string has a byte >= 0x80, so the two differ
	// asGit asks a version 1 filter as git 2.39.5 built for x86-64 asks
	// it, with the sign-extended hashes alone (as rawContains does),
	// rather than either (see in).
	asGit bool
}

func newBloomHash(s []byte) bloomHash {
	bh := bloomHash{h0: murmur3(bloomSeed0, s, false), h1: murmur3(bloomSeed1, s, false)}
	for _, c := range s {
		if c >= 0x80 {
			bh.highBits = true
			break
		}
	}
	if bh.highBits {
		bh.s0 = murmur3(bloomSeed0, s, true)
		bh.s1 = murmur3(bloomSeed1, s, true)
	} else {
		bh.s0, bh.s1 = bh.h0, bh.h1
	}
	return bh
}

// filterHas reports whether all k positions derived from (h0, h1) are set
// in filter (a non-empty byte string; bit j of the filter is bit j%8 of
// byte j/8).
func filterHas(filter []byte, k uint32, h0, h1 uint32) bool {
	mod := uint64(len(filter)) * 8
	if mod < 1<<32 {
		// The usual case: a 32-bit division is several times cheaper
		// than a 64-bit one and gives the same remainder.
		m := uint32(mod)
		for i := uint32(0); i < k; i++ {
			pos := (h0 + i*h1) % m
			if filter[pos>>3]&(1<<(pos&7)) == 0 {
				return false
			}
		}
		return true
	}
	for i := uint32(0); i < k; i++ {
		pos := uint64(h0+i*h1) % mod
		if filter[pos>>3]&(1<<(pos&7)) == 0 {
			return false
		}
	}
	return true
}

// in reports whether the hashed string may be in filter. For a version 1
// filter and a string with high-bit bytes, the writer's char signedness is
// unknown, so either interpretation answering "maybe" counts as "maybe":
// the answer "no" is then given only when neither hash could have been
// added, which keeps the filter sound for files written on any machine.
func (bh *bloomHash) in(filter []byte, s bloomSettings) bool {
	if s.version == 1 && bh.highBits {
		if bh.asGit {
			return filterHas(filter, s.numHashes, bh.s0, bh.s1)
		}
		return filterHas(filter, s.numHashes, bh.s0, bh.s1) || filterHas(filter, s.numHashes, bh.h0, bh.h1)
	}
	return filterHas(filter, s.numHashes, bh.h0, bh.h1)
}

// BloomKey is a path prepared for changed-path Bloom filter queries: the
// hashes of the path and of each of its leading directories, computed
// once. The zero BloomKey (an empty path) always answers "maybe".
//
// Git adds every changed path and all its leading directories to a
// commit's filter, so a path can have changed only if the path and each
// leading directory all test positive; requiring all of them (as git's
// rev-list does) makes false positives rarer than testing the path alone
// (as git's blame does) without ever turning a real change into a "no".
type BloomKey struct {
	path       []byte
	components []bloomHash // the path first, then its parents, longest first
}

// NewBloomKey hashes path (slash-separated, no leading or trailing slash)
// and its leading directories.
func NewBloomKey(path []byte) BloomKey {
	k := BloomKey{path: bytes.Clone(path)}
	if len(path) == 0 {
		return k
	}
	k.components = append(k.components, newBloomHash(path))
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == '/' {
			k.components = append(k.components, newBloomHash(path[:i]))
		}
	}
	return k
}

// Path returns the path the key was made from (do not modify it).
func (k *BloomKey) Path() []byte { return k.path }

// mayContain reports whether the path may be among a filter's keys.
func (k *BloomKey) mayContain(filter []byte, s bloomSettings) bool {
	for i := range k.components {
		if !k.components[i].in(filter, s) {
			return false
		}
	}
	return true
}
