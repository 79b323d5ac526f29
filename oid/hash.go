package oid

import (
	"crypto/sha1"
	"crypto/sha256"
	"hash"
	"strconv"
)

// NewHasher returns a fresh hash.Hash for format f.
func NewHasher(f Format) hash.Hash {
	if f == SHA256 {
		return sha256.New()
	}
	return sha1.New()
}

// HashObject computes the ID git gives an object of the given type name
// ("blob", "tree", "commit", "tag") and content.
func HashObject(f Format, typeName string, content []byte) ID {
	h := NewHasher(f)
	var hdr [32]byte
	b := append(hdr[:0], typeName...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(content)), 10)
	b = append(b, 0)
	h.Write(b)
	h.Write(content)
	var sum [MaxSize]byte
	return FromBytes(f, h.Sum(sum[:0]))
}
