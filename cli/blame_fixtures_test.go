package cli

// historyScript is a history exercising most of blame's output: several
// authors (one non-ASCII, one wide), a .mailmap, merges, a rename, a tag,
// lines without a final newline, and enough lines for two-digit widths.
const historyScript = `git init -q r && cd r
printf '%s\n' one two three four five six seven eight nine ten eleven >file
printf 'alpha\nbeta\ngamma\n' >other.txt
commit_all initial
git tag -a -m "tag message" v1
sed -i 's/^three$/THREE/' file
GIT_AUTHOR_NAME='Zoë Ünïcode' GIT_AUTHOR_EMAIL=zoe@example.com commit_all "second commit

with a body"
git checkout -q -b side
sed -i 's/^nine$/nine (side)/' file
GIT_AUTHOR_NAME='日本語 名前' GIT_AUTHOR_EMAIL=jp@example.com commit_all side
git checkout -q main
sed -i 's/^one$/ONE/' file
printf 'twelve\n' >>file
commit_all main-edit
git merge -q --no-edit side
git mv other.txt moved.txt
printf 'delta\n' >>moved.txt
commit_all "rename other.txt"
printf 'Proper Name <proper@example.com> <author@example.com>\n' >.mailmap
printf 'thirteen' >>file
commit_all "mailmap and no final newline"
`

// worktreeScript leaves uncommitted changes: an edited file, a staged
// new file, and a file changed in the index and the work tree.
const worktreeScript = historyScript + `
sed -i 's/^five$/five (edited)/' file
printf 'new file\n' >staged.txt
git add staged.txt
printf 'alpha\nbeta\ngamma\ndelta\nepsilon\n' >moved.txt
`
