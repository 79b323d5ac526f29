package blame

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/internal/startcmd"
	"github.com/goblame/goblame/repo"
)

// The long-running filter protocol (git's gitattributes(5), "Long
// Running Filter Process"): pkt-lines over the filter's standard input
// and output, version 2.
const (
	// pktMax is LARGE_PACKET_MAX, the largest packet with its length;
	// pktMaxData (LARGE_PACKET_DATA_MAX) the most one carries.
	pktMax     = 65520
	pktMaxData = pktMax - 4
)

// errPktEOF is the end of the filter's output where a reader that is
// gentle on it stops (git's PACKET_READ_EOF).
var errPktEOF = errors.New("end of packets")

// pktConn writes and reads pkt-lines to and from a filter process; warn
// takes git's error lines for failed writes.
type pktConn struct {
	w    io.Writer
	r    *bufio.Reader
	warn func(string)
}

// writeLine sends one packet carrying a line (packet_write_fmt_gently).
func (p *pktConn) writeLine(s string) error {
	_, err := io.WriteString(p.w, fmt.Sprintf("%04x%s", len(s)+4, s))
	if err != nil {
		p.warn("error: packet write with format failed")
	}
	return err
}

// writeData sends one packet of content (packet_write_gently), at most
// pktMaxData bytes.
func (p *pktConn) writeData(b []byte) error {
	_, err := fmt.Fprintf(p.w, "%04x", len(b)+4)
	if err == nil {
		_, err = p.w.Write(b)
	}
	if err != nil {
		p.warn("error: packet write failed: " + repo.Strerror(err))
	}
	return err
}

// flush sends a flush packet.
func (p *pktConn) flush() error {
	_, err := io.WriteString(p.w, "0000")
	if err != nil {
		p.warn("error: flush packet write failed")
	}
	return err
}

// read returns the next packet's data, nil for a flush (or delimiter)
// packet. Where git's packet_read dies — a bad length, or the end of the
// output unless gentle — the error is git's fatal message; a gentle
// reader gets errPktEOF at the end.
func (p *pktConn) read(gentle bool) ([]byte, error) {
	var head [4]byte
	if n, err := io.ReadFull(p.r, head[:]); err != nil {
		if n == 0 && gentle {
			return nil, errPktEOF
		}
		return nil, fatalf("the remote end hung up unexpectedly")
	}
	n, err := strconv.ParseUint(string(head[:]), 16, 16)
	if err != nil {
		return nil, fatalf("protocol error: bad line length character: %s", head[:])
	}
	switch {
	case n == 0, n == 1, n == 2:
		return nil, nil // flush, delimiter, response end
	case n < 4 || n-4 >= pktMax:
		return nil, fatalf("protocol error: bad line length %d", n)
	}
	data := make([]byte, n-4)
	if _, err := io.ReadFull(p.r, data); err != nil {
		return nil, fatalf("the remote end hung up unexpectedly")
	}
	return data, nil
}

// readLine is packet_read_line: a packet without its final newline;
// nil (with ok false) for a flush packet.
func (p *pktConn) readLine(gentle bool) (line string, ok bool, err error) {
	data, err := p.read(gentle)
	if err != nil || data == nil {
		return "", false, err
	}
	return string(bytes.TrimSuffix(data, []byte("\n"))), true, nil
}

// readStatus is subprocess_read_status: the lines up to a flush packet,
// where the last "status=<value>" sets status; an end of output before
// the flush is an error.
func (p *pktConn) readStatus(status *string) error {
	for {
		line, ok, err := p.readLine(true)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if v, found := strings.CutPrefix(line, "status="); found && v != "" {
			*status = v
		}
	}
}

// filterProcess is one started filter process.
type filterProcess struct {
	cmd       string
	c         *exec.Cmd
	stderrOut func() // writes what the process wrote to its standard error
	stdin     io.WriteCloser
	stdout    io.Closer
	pkt       *pktConn
	clean     bool // it has the clean capability
}

// processFilter runs the clean command of a long-running filter process
// (git's apply_multi_file_filter) on path's content: the process is
// started, the handshake made (client and server "git-filter", version
// 2, capabilities clean, smudge and delay), and the content sent and
// read back. ok is false when the content stays unfiltered: the process
// could not start or failed its handshake, it has no clean capability,
// or it answered with a status other than "success" (after git's error
// line unless it was "error" or "abort"). err is what git dies of: a
// broken pkt-line, an unknown capability.
func (b *run) processFilter(cmd, path string, data []byte) (out []byte, ok bool, err error) {
	p, err := b.startFilterProcess(cmd)
	if p == nil || err != nil {
		return nil, false, err
	}
	if !p.clean {
		b.stopFilterProcess(p, false)
		return nil, false, nil
	}
	status := ""
	out, err = p.cleanRequest(path, data, &status)
	switch {
	case err != nil && !errors.Is(err, errPktEOF) && !isWriteError(err):
		b.stopFilterProcess(p, false) // a broken pkt-line: git dies
		return nil, false, err
	case err == nil && status == "success":
		b.stopFilterProcess(p, false)
		return out, true, nil
	case status == "error" || status == "abort":
		// The filter refused the file (git's handle_filter_error says
		// nothing and keeps the process).
		b.stopFilterProcess(p, false)
		return nil, false, nil
	}
	if errors.Is(err, errPathTooLong) {
		b.warn("error: path name too long for external filter")
	}
	b.warn("error: external filter '" + cmd + "' failed")
	b.stopFilterProcess(p, true)
	return nil, false, nil
}

var errPathTooLong = errors.New("path name too long for external filter")

// writeError marks a failed write to the filter (git's gentle writes).
type writeError struct{ error }

func (e writeError) Unwrap() error { return e.error }

func isWriteError(err error) bool {
	var we writeError
	return errors.As(err, &we)
}

// cleanRequest sends one clean command and reads the answer; status is
// the last status the filter gave.
func (p *filterProcess) cleanRequest(path string, data []byte, status *string) ([]byte, error) {
	w := func(err error) error {
		if err != nil {
			return writeError{err}
		}
		return nil
	}
	if err := w(p.pkt.writeLine("command=clean\n")); err != nil {
		return nil, err
	}
	if len(path) > pktMaxData-len("pathname=\n") {
		return nil, writeError{errPathTooLong}
	}
	if err := w(p.pkt.writeLine("pathname=" + path + "\n")); err != nil {
		return nil, err
	}
	if err := w(p.pkt.flush()); err != nil {
		return nil, err
	}
	for rest := data; len(rest) > 0; {
		n := min(len(rest), pktMaxData)
		if err := w(p.pkt.writeData(rest[:n])); err != nil {
			return nil, err
		}
		rest = rest[n:]
	}
	if err := w(p.pkt.flush()); err != nil {
		return nil, err
	}
	if err := p.pkt.readStatus(status); err != nil {
		return nil, err
	}
	if *status != "success" {
		return nil, nil
	}
	var out bytes.Buffer
	for {
		d, err := p.pkt.read(true)
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		out.Write(d)
	}
	if err := p.pkt.readStatus(status); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// startFilterProcess starts cmd and makes the handshake (git's
// subprocess_start with start_multi_file_filter_fn). It returns nil,
// after git's error lines, when the process does not start or the
// handshake fails; err is what git dies of during it.
func (b *run) startFilterProcess(cmd string) (*filterProcess, error) {
	c, stderrOut, err := b.command(cmd, cmd)
	if err != nil {
		b.warn("error: cannot fork to run subprocess '" + cmd + "'")
		return nil, nil
	}
	c, stdin, stdout, err := startcmd.StartPiped(c, true)
	if err != nil {
		// What git's child dies of when the exec fails.
		b.warn(startcmd.ExecFailedLine(cmd, err, repo.Strerror))
		b.warn("error: cannot fork to run subprocess '" + cmd + "'")
		return nil, nil
	}
	p := &filterProcess{cmd: cmd, c: c, stderrOut: stderrOut, stdin: stdin, stdout: stdout, pkt: &pktConn{w: stdin, r: bufio.NewReader(stdout), warn: b.warn}}
	if msg, err := p.handshake(); err != nil || msg != "" {
		if msg != "" {
			b.warn("error: " + msg)
			b.warn("error: initialization for subprocess '" + cmd + "' failed")
		}
		b.stopFilterProcess(p, err == nil)
		return nil, err
	}
	return p, nil
}

// handshake is subprocess_handshake for "git-filter", version 2, with the
// capabilities git asks for. msg is git's error when it fails (the
// process is then stopped); err is what git dies of.
func (p *filterProcess) handshake() (msg string, err error) {
	if p.pkt.writeLine("git-filter-client\n") != nil {
		return "Could not write client identification", nil
	}
	if p.pkt.writeLine("version=2\n") != nil {
		return "Could not write requested version", nil
	}
	if p.pkt.flush() != nil {
		return "Could not write flush packet", nil
	}
	expect := func(what string, ok func(string) bool) (string, error) {
		line, got, err := p.pkt.readLine(false)
		if err != nil {
			return "", err
		}
		if !got {
			return "Unexpected line '<flush packet>', expected " + what, nil
		}
		if !ok(line) {
			return "Unexpected line '" + line + "', expected " + what, nil
		}
		return "", nil
	}
	if msg, err := expect("git-filter-server", func(l string) bool { return l == "git-filter-server" }); msg != "" || err != nil {
		return msg, err
	}
	version := int64(0)
	if msg, err := expect("version", func(l string) bool {
		// strtol_i: the whole rest is a C integer that fits an int.
		v, found := strings.CutPrefix(l, "version=")
		n, end := gitdate.CStrtol(v, 0)
		version = n
		return found && end == len(v) && n == int64(int32(n))
	}); msg != "" || err != nil {
		return msg, err
	}
	line, got, err := p.pkt.readLine(false)
	if err != nil {
		return "", err
	}
	if got {
		return "Unexpected line '" + line + "', expected flush", nil
	}
	if version != 2 {
		return "Version " + strconv.FormatInt(version, 10) + " not supported", nil
	}
	for _, c := range []string{"clean", "smudge", "delay"} {
		if p.pkt.writeLine("capability="+c+"\n") != nil {
			return "Could not write requested capability", nil
		}
	}
	if p.pkt.flush() != nil {
		return "Could not write flush packet", nil
	}
	for {
		line, got, err := p.pkt.readLine(false)
		if err != nil {
			return "", err
		}
		if !got {
			return "", nil
		}
		c, found := strings.CutPrefix(line, "capability=")
		if !found {
			continue
		}
		switch c {
		case "clean":
			p.clean = true
		case "smudge", "delay":
		default:
			return "", fatalf("subprocess '%s' requested unsupported capability '%s'", p.cmd, c)
		}
	}
}

// stopFilterProcess ends a filter process: by closing its input and
// waiting, as git does at exit, or with SIGTERM first, as git's
// subprocess_stop does after a failure (git's "died of signal" line when
// the signal ended it).
func (b *run) stopFilterProcess(p *filterProcess, kill bool) {
	if kill && p.c.Process != nil {
		_ = p.c.Process.Signal(syscall.SIGTERM)
	}
	p.stdin.Close()
	err := p.c.Wait()
	p.stdout.Close()
	p.stderrOut()
	b.runStatus(err, p.cmd)
}
