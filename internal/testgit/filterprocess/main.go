// Command filterprocess is a long-running filter process for the tests
// of clean filters (git's "Long Running Filter Process" protocol,
// version 2): its clean command upper-cases the content. Its argument
// picks a behaviour to test git's handling of a filter against
// goblame's:
//
//	upper       a well-behaved filter (also the default)
//	nocap       advertises smudge only
//	error       answers status=error
//	abort       answers status=abort
//	badstatus   answers status=weird
//	die         exits after reading the request, without an answer
//	badwelcome  greets as "git-filter-srv"
//	v3          offers only version 3
//	unknowncap  advertises a capability git does not know
//	stderr      writes a line to standard error, then upper-cases
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
)

var (
	in  = bufio.NewReader(os.Stdin)
	out = bufio.NewWriter(os.Stdout)
)

func main() {
	mode := "upper"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	readUntilFlush() // git-filter-client, versions
	welcome, version := "git-filter-server", "version=2"
	switch mode {
	case "badwelcome":
		welcome = "git-filter-srv"
	case "v3":
		version = "version=3"
	}
	write(welcome + "\n")
	write(version + "\n")
	flush()
	readUntilFlush() // capabilities
	switch mode {
	case "nocap":
		write("capability=smudge\n")
	case "unknowncap":
		write("capability=clean\n")
		write("capability=frobnicate\n")
	default:
		write("capability=clean\n")
		write("capability=smudge\n")
	}
	flush()
	for {
		if _, ok := readUntilFlush(); !ok { // command, pathname
			return
		}
		var content bytes.Buffer
		for {
			p, ok := readPacket()
			if !ok {
				return
			}
			if p == nil {
				break
			}
			content.Write(p)
		}
		switch mode {
		case "die":
			os.Exit(0)
		case "error", "abort", "badstatus":
			status := map[string]string{"error": "error", "abort": "abort", "badstatus": "weird"}[mode]
			write("status=" + status + "\n")
			flush()
			continue
		case "stderr":
			fmt.Fprintln(os.Stderr, "filterprocess: cleaning")
		}
		write("status=success\n")
		flush()
		write(string(bytes.ToUpper(content.Bytes())))
		flush()
		flush() // the status stays "success"
	}
}

// readPacket returns a packet's data, nil for a flush packet; ok is
// false at the end of the input.
func readPacket() (data []byte, ok bool) {
	var head [4]byte
	if _, err := io.ReadFull(in, head[:]); err != nil {
		return nil, false
	}
	n, err := strconv.ParseUint(string(head[:]), 16, 16)
	if err != nil {
		os.Exit(3)
	}
	if n == 0 {
		return nil, true
	}
	data = make([]byte, n-4)
	if _, err := io.ReadFull(in, data); err != nil {
		return nil, false
	}
	return data, true
}

func readUntilFlush() ([][]byte, bool) {
	var lines [][]byte
	for {
		p, ok := readPacket()
		if !ok {
			return lines, false
		}
		if p == nil {
			return lines, true
		}
		lines = append(lines, p)
	}
}

func write(s string) {
	for len(s) > 0 {
		n := min(len(s), 65516)
		fmt.Fprintf(out, "%04x%s", n+4, s[:n])
		s = s[n:]
	}
}

func flush() {
	out.WriteString("0000")
	out.Flush()
}
