package posixre

type opcode uint8

const (
	opChar opcode = iota
	opAny
	opSet
	opAssert
	opSplit // to x, then y
	opJmp   // to x
	opMatch
)

type inst struct {
	op     opcode
	assert assertion
	c      int32
	set    *charSet
	x, y   int
}

// compileProg turns an expression without back references into a
// program for the Pike machine.
func compileProg(root *node) []inst {
	var prog []inst
	var emit func(n *node)
	emit = func(n *node) {
		switch n.kind {
		case nEmpty, nBackref:
		case nChar:
			prog = append(prog, inst{op: opChar, c: n.c})
		case nAny:
			prog = append(prog, inst{op: opAny})
		case nSet:
			prog = append(prog, inst{op: opSet, set: n.set})
		case nAssert:
			prog = append(prog, inst{op: opAssert, assert: n.assert})
		case nConcat:
			for _, s := range n.sub {
				emit(s)
			}
		case nGroup:
			emit(n.sub[0])
		case nAlt:
			var jumps []int
			for k, s := range n.sub {
				split := -1
				if k < len(n.sub)-1 {
					split = len(prog)
					prog = append(prog, inst{op: opSplit})
					prog[split].x = len(prog)
				}
				emit(s)
				if k < len(n.sub)-1 {
					jumps = append(jumps, len(prog))
					prog = append(prog, inst{op: opJmp})
					prog[split].y = len(prog)
				}
			}
			for _, j := range jumps {
				prog[j].x = len(prog)
			}
		case nRepeat:
			sub := n.sub[0]
			for range n.min {
				emit(sub)
			}
			if n.max == -1 {
				loop := len(prog)
				prog = append(prog, inst{op: opSplit, x: loop + 1})
				emit(sub)
				prog = append(prog, inst{op: opJmp, x: loop})
				prog[loop].y = len(prog)
				return
			}
			var splits []int
			for range n.max - n.min {
				splits = append(splits, len(prog))
				prog = append(prog, inst{op: opSplit, x: len(prog) + 1})
				emit(sub)
			}
			for _, s := range splits {
				prog[s].y = len(prog)
			}
		}
	}
	emit(root)
	prog = append(prog, inst{op: opMatch})
	return prog
}

// threadList is a set of program counters, each with the start of the
// earliest match attempt that reached it, in the order they were added.
type threadList struct {
	dense  []int32 // pcs in order
	starts []int   // by position in dense
	sparse []int32 // pc -> index in dense
}

func newThreadList(n int) *threadList {
	return &threadList{dense: make([]int32, 0, n), starts: make([]int, 0, n), sparse: make([]int32, n)}
}

func (l *threadList) has(pc int) bool {
	i := l.sparse[pc]
	return int(i) < len(l.dense) && l.dense[i] == int32(pc)
}

func (l *threadList) add(pc, start int) {
	l.sparse[pc] = int32(len(l.dense))
	l.dense = append(l.dense, int32(pc))
	l.starts = append(l.starts, start)
}

func (l *threadList) clear() {
	l.dense = l.dense[:0]
	l.starts = l.starts[:0]
}

// pike runs the program over s and returns the leftmost-longest match
// (with first, any match as soon as one is found).
func (e *engine) pike(s []byte, first bool) (int, int, bool) {
	prog := e.prog
	clist, nlist := newThreadList(2*len(prog)), newThreadList(2*len(prog))
	var stack []int
	bestStart, bestEnd := -1, -1

	// addThread adds pc and what it reaches without a character at
	// position pos; a match found there is recorded. A state is a pc
	// and whether a $ passed at a newline waits for it to be consumed
	// (see holdsAt).
	addThread := func(l *threadList, pc, start, pos int, cx context) bool {
		stack = append(stack[:0], pc*2)
		for len(stack) > 0 {
			st := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if l.has(st) {
				continue
			}
			l.add(st, start)
			pc, pending := st/2, st&1
			in := &prog[pc]
			switch in.op {
			case opJmp:
				stack = append(stack, in.x*2|pending)
			case opSplit:
				stack = append(stack, in.y*2|pending, in.x*2|pending)
			case opAssert:
				switch e.holdsAt(in.assert, cx, pos, start) {
				case holdsNow:
					stack = append(stack, (pc+1)*2|pending)
				case holdsIfNewlineConsumed:
					stack = append(stack, (pc+1)*2|1)
				}
			case opMatch:
				if pending != 0 {
					break
				}
				if bestStart < 0 || start < bestStart || start == bestStart && pos > bestEnd {
					bestStart, bestEnd = start, pos
				}
				if first {
					return true
				}
			}
		}
		return false
	}

	prev := int32(-1)
	next, width := int32(-1), 0
	if len(s) > 0 {
		next, width = e.char(s, 0)
	}
	for pos := 0; ; {
		cx := context{prev: prev, next: next}
		if bestStart < 0 {
			if addThread(clist, 0, pos, pos, cx) {
				return bestStart, bestEnd, true
			}
		}
		if pos >= len(s) || len(clist.dense) == 0 && bestStart >= 0 {
			break
		}
		c, n := next, width
		npos := pos + n
		next, width = -1, 0
		if npos < len(s) {
			next, width = e.char(s, npos)
		}
		ncx := context{prev: c, next: next}
		for k, st := range clist.dense {
			start := clist.starts[k]
			if bestStart >= 0 && start > bestStart {
				break
			}
			pc := st / 2
			in := &prog[pc]
			ok := false
			switch in.op {
			case opChar:
				ok = c == in.c
			case opAny:
				ok = e.anyAccepts(c)
			case opSet:
				ok = in.set.matches(c, e.utf8)
			}
			if ok && addThread(nlist, int(pc)+1, start, npos, ncx) {
				return bestStart, bestEnd, true
			}
		}
		clist, nlist = nlist, clist
		nlist.clear()
		prev = c
		pos = npos
	}
	if bestStart < 0 {
		return 0, 0, false
	}
	return bestStart, bestEnd, true
}
