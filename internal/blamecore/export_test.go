package blamecore

// SetLineTableBudget sets the differ's line-table budget for -C rounds
// (see trimLineTable) and returns a function that restores it.
func SetLineTableBudget(n int) (restore func()) {
	old := lineTableBudget
	lineTableBudget = n
	return func() { lineTableBudget = old }
}

// SetRuleOutEntryDiffs turns the -M/-C entry prefilter (entryMayHoldRun)
// on or off and returns a function that restores it.
func SetRuleOutEntryDiffs(on bool) (restore func()) {
	old := ruleOutEntryDiffs
	ruleOutEntryDiffs = on
	return func() { ruleOutEntryDiffs = old }
}

// SetInfoAheadHelperFirst makes the result phase's main goroutine wait
// until the second one has taken its first commit (see infoAhead), so
// that a test sees both read, and returns a function that restores it.
func SetInfoAheadHelperFirst(on bool) (restore func()) {
	old := infoAheadHelperFirst
	infoAheadHelperFirst = on
	return func() { infoAheadHelperFirst = old }
}

// SetCandidateBudgetBounds bounds the -C candidates' budget (see
// candidateBudget) and returns a function that restores the bounds.
func SetCandidateBudgetBounds(least, most int) (restore func()) {
	oldMin, oldMax := minCandidateBytes, maxCandidateBytes
	minCandidateBytes, maxCandidateBytes = least, most
	return func() { minCandidateBytes, maxCandidateBytes = oldMin, oldMax }
}

// SetWalkLineTableBound sets the bound of the differ's line table in a
// walk's passes (see boundLineTable) and returns a function that
// restores it.
func SetWalkLineTableBound(floor, files int) (restore func()) {
	oldFloor, oldFiles := walkLineTableFloor, walkLineTableFiles
	walkLineTableFloor, walkLineTableFiles = floor, files
	return func() { walkLineTableFloor, walkLineTableFiles = oldFloor, oldFiles }
}
