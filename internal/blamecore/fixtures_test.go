package blamecore_test

// Fixture histories for the differential tests. Each script runs in an
// empty directory (see internal/testgit) and leaves a repository in ./r.

var fixtureScripts = map[string]string{
	// A linear history of edits: appends, inserts, deletes, rewrites.
	"linear": `git init -q r && cd r
printf 'a\n' >file
commit_all one
printf 'a\nb\nc\nd\n' >file
commit_all two
printf 'a\nB\nc\nd\ne\n' >file
commit_all three
printf 'x\na\nB\nd\ne\n' >file
commit_all four
printf 'x\na\nB\nd\ne\nf\ng\nh\n' >file
commit_all five
printf 'x\na\nB\nd\ne\nf\ng\nh' >file
commit_all "no final newline"
`,
	// Merges: a clean merge, a merge with a conflict resolved, an evil
	// merge line, and a criss-cross.
	"merges": `git init -q r && cd r
seq 1 20 >f
commit_all base
git checkout -q -b side
sed -i 's/^3$/3 side/' f
commit_all side1
git checkout -q main
sed -i 's/^15$/15 main/' f
commit_all main1
git merge -q --no-edit side
sed -i 's/^10$/10 evil/' f
test_tick
git commit -q -a --amend --no-edit
git checkout -q side
sed -i 's/^5$/5 side2/' f
commit_all side2
git checkout -q main
sed -i 's/^5$/5 main2/' f
commit_all main2
git merge -q side || true
printf '%s\n' 1 2 '3 side' 4 '5 resolved' 6 7 8 9 '10 evil' 11 12 13 14 '15 main' 16 17 18 19 20 >f
commit_all "merge with conflict"
git checkout -q -b x HEAD~1
sed -i 's/^1$/1 x/' f
commit_all x1
git checkout -q main
sed -i 's/^20$/20 main3/' f
commit_all main3
git merge -q --no-edit x
git checkout -q x
git merge -q --no-edit main~1 || true
sed -i 's/^2$/2 x2/' f
commit_all x2
git checkout -q main
git merge -q --no-edit x || true
commit_all criss-cross
`,
	// Renames: an exact rename, a rename with edits, a file deleted and
	// re-added, a rename into a directory.
	"renames": `git init -q r && cd r
printf 'alpha line one\nbeta line two\ngamma line three\ndelta line four\n' >old.txt
seq 1 50 >numbers
commit_all initial
git mv old.txt new.txt
commit_all "exact rename"
git mv new.txt 'new name.txt'
printf 'epsilon line five\n' >>'new name.txt'
commit_all "rename with edit"
mkdir dir
git mv numbers dir/numbers
sed -i 's/^25$/twenty-five/' dir/numbers
commit_all "move into dir"
git rm -q 'new name.txt'
commit_all delete
printf 'alpha line one\nbeta line two\nfresh\n' >'new name.txt'
commit_all re-add
`,
	// Equal commit dates and clock skew.
	"dates": `git init -q r && cd r
printf '1\n2\n3\n4\n5\n6\n' >f
commit_all c1
export GIT_COMMITTER_DATE="$test_tick -0700"
sed -i 's/^2$/two/' f; git commit -q -am c2
sed -i 's/^4$/four/' f; git commit -q -am c3
export GIT_COMMITTER_DATE="1000000000 +0000"
sed -i 's/^6$/six/' f; git commit -q -am "skewed"
test_tick
sed -i 's/^1$/one/' f; git commit -q -am c5
`,
	// Special files: empty, CRLF, binary, a long line, non-ASCII author.
	"special": `git init -q r && cd r
: >empty
printf 'a\r\nb\r\nc\r\n' >crlf
printf 'bin\000ary\nx\n' >binary
head -c 20000 /dev/zero | tr '\0' 'x' >long; echo >>long
printf 'one\n' >unicode
commit_all initial
printf 'a\r\nB\r\nc\r\n' >crlf
printf 'bin\000ary\ny\n' >binary
printf 'one\ntwo\n' >unicode
GIT_AUTHOR_NAME='Zoë Ünïcode' commit_all second
printf 'one\ntwo\n日本\n' >unicode
GIT_AUTHOR_NAME='日本語 名前' commit_all third
`,
}
