// Package cnum parses numbers as C's strtol family does, where git's
// behaviour rests on it: option values (-L, --abbrev, -n), configuration
// numbers (git_parse_signed/unsigned), environment counts
// (GIT_CONFIG_COUNT), tab widths. One copy, so that the places that need
// C's rules — leading white space, a sign, base prefixes, where parsing
// stops, what an overflow gives — cannot drift apart.
//
// # Concurrency
//
// The functions are pure.
package cnum

// IsSpace is C's isspace in the "C" locale.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// digits parses what follows the white space and sign of s from i on,
// in base (0: "0x" or "0X" before a hex digit for 16, a leading "0" for
// 8, else 10), as an unsigned magnitude saturating at max. end is the
// index after the last digit, 0 when there is none.
func digits(s string, i, base int, max uint64) (v uint64, end int, overflow bool) {
	if base == 0 {
		base = 10
		if i < len(s) && s[i] == '0' {
			if i+2 < len(s) && (s[i+1]|0x20) == 'x' && digitVal(s[i+2]) < 16 {
				base = 16
				i += 2
			} else {
				base = 8
			}
		}
	}
	start := i
	b := uint64(base)
	for ; i < len(s); i++ {
		d := digitVal(s[i])
		if d >= b {
			break
		}
		if v > (max-d)/b {
			overflow = true
			v = max
		} else if !overflow {
			v = v*b + d
		}
	}
	if i == start {
		return 0, 0, false
	}
	return v, i, overflow
}

// digitVal is the value of a digit of any base up to 36, 99 for a byte
// that is none.
func digitVal(c byte) uint64 {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0')
	case 'a' <= c && c <= 'z':
		return uint64(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return uint64(c-'A') + 10
	}
	return 99
}

// sign skips leading white space and a sign: the index after them, and
// whether the sign was a minus.
func sign(s string) (int, bool) {
	i := 0
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1, s[i] == '-'
	}
	return i, false
}

// Strtoul is strtoul(s, &end, base) with a 64-bit unsigned long, for
// base 10 or 0 (see digits): leading white space and a sign are taken, a
// minus negates modulo 2^64, an overflow gives the maximum (overflow
// true: C's ERANGE). end is the index where parsing stopped, 0 when
// there were no digits (C's end is then s itself).
func Strtoul(s string, base int) (v uint64, end int, overflow bool) {
	i, neg := sign(s)
	v, end, overflow = digits(s, i, base, 1<<64-1)
	if end == 0 || overflow {
		return v, end, overflow
	}
	if neg {
		v = -v
	}
	return v, end, false
}

// Strtol is strtol(s, &end, base) with a 64-bit long, for base 10 or 0:
// an overflow gives the bound on its side (overflow true). end is as for
// Strtoul.
func Strtol(s string, base int) (v int64, end int, overflow bool) {
	i, neg := sign(s)
	var max uint64 = 1<<63 - 1
	if neg {
		max = 1 << 63
	}
	u, end, overflow := digits(s, i, base, max)
	if neg {
		return int64(-u), end, overflow // -2^63 when u is 2^63
	}
	return int64(u), end, overflow
}

// Atoi is C's atoi: Strtol in base 10, truncated to a 32-bit int as
// glibc's (int) conversion truncates.
func Atoi(s string) int {
	v, _, _ := Strtol(s, 10)
	return int(int32(v))
}
