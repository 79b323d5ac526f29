package cnum

import "testing"

func TestStrtoul(t *testing.T) {
	for _, c := range []struct {
		s        string
		base     int
		v        uint64
		end      int
		overflow bool
	}{
		{"42", 10, 42, 2, false},
		{"  +7k", 10, 7, 4, false},
		{"-1", 10, 1<<64 - 1, 2, false},
		{"-0", 10, 0, 2, false},
		{"18446744073709551615", 10, 1<<64 - 1, 20, false},
		{"18446744073709551616", 10, 1<<64 - 1, 20, true},
		{"99999999999999999999x", 10, 1<<64 - 1, 20, true},
		{"", 10, 0, 0, false},
		{"x", 10, 0, 0, false},
		{"-", 10, 0, 0, false},
		{" ", 10, 0, 0, false},
		{"0x1F", 0, 31, 4, false},
		{"0x", 0, 0, 1, false},  // "0", then "x"
		{"0xg", 0, 0, 1, false}, // no hex digit: octal "0"
		{"017", 0, 15, 3, false},
		{"09", 0, 0, 1, false}, // octal stops at 9
		{"0x10", 10, 0, 1, false},
	} {
		v, end, overflow := Strtoul(c.s, c.base)
		if v != c.v || end != c.end || overflow != c.overflow {
			t.Errorf("Strtoul(%q, %d) = %d, %d, %v; want %d, %d, %v", c.s, c.base, v, end, overflow, c.v, c.end, c.overflow)
		}
	}
}

func TestStrtol(t *testing.T) {
	for _, c := range []struct {
		s        string
		base     int
		v        int64
		end      int
		overflow bool
	}{
		{"-42", 10, -42, 3, false},
		{"\t+5,", 10, 5, 3, false},
		{"9223372036854775807", 10, 1<<63 - 1, 19, false},
		{"9223372036854775808", 10, 1<<63 - 1, 19, true},
		{"-9223372036854775808", 10, -1 << 63, 20, false},
		{"-9223372036854775809", 10, -1 << 63, 20, true},
		{"-0x10", 0, -16, 5, false},
		{"abc", 10, 0, 0, false},
	} {
		v, end, overflow := Strtol(c.s, c.base)
		if v != c.v || end != c.end || overflow != c.overflow {
			t.Errorf("Strtol(%q, %d) = %d, %d, %v; want %d, %d, %v", c.s, c.base, v, end, overflow, c.v, c.end, c.overflow)
		}
	}
}

func TestAtoi(t *testing.T) {
	for s, want := range map[string]int{"12abc": 12, " -3": -3, "x": 0, "4294967297": 1, "99999999999999999999": -1} {
		if got := Atoi(s); got != want {
			t.Errorf("Atoi(%q) = %d, want %d", s, got, want)
		}
	}
}
