package odb

import (
	"fmt"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// HashMismatchError reports an object whose content does not hash to the
// name it was read under (after replace refs): a loose object's file
// holding another object, or a pack index that points at another entry.
// git's parse_object checks this and says "hash mismatch <Want>".
type HashMismatchError struct {
	Want oid.ID // the name read, replace refs applied
	Got  oid.ID // what the content hashes to
}

func (e *HashMismatchError) Error() string {
	return fmt.Sprintf("hash mismatch %s (the content read is object %s)", e.Want, e.Got)
}

// GitLine is git's error line for it.
func (e *HashMismatchError) GitLine() string { return "error: hash mismatch " + e.Want.String() }

// ReadVerified is Read as git's parse_object reads: the content must hash
// to the name read (replace refs applied), else *HashMismatchError. Read
// does not check this (git's other reads do not either); a caller uses
// this one where git parses an object it has not parsed before. It costs
// one hash of the object.
func (r *Reader) ReadVerified(id oid.ID, dst []byte) (object.Type, []byte, error) {
	typ, data, err := r.Read(id, dst)
	if err != nil {
		return typ, data, err
	}
	want := r.db.Replaced(id)
	if got := oid.HashObject(r.db.format, typ.String(), data); got != want {
		return object.Invalid, nil, &HashMismatchError{Want: want, Got: got}
	}
	return typ, data, nil
}
