package odbbench

import (
	"path/filepath"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// GeneratedFile is the file of the generated repository whose history the
// history measurement reads (one of the most edited).
const GeneratedFile = "dir7/file7.txt"

// generateScript builds the CI-sized repository: 3,000 commits by git
// fast-import over 200 files of 60 lines in 10 directories; the first
// commit adds every file, each later one changes one line in each of three
// files (file7.txt in every third commit), so that blobs and trees form
// long delta chains. Repacked like a gc'd repository.
const generateScript = `
git init -q --bare repo.git
cd repo.git
LC_ALL=C awk -v commits=3000 -v files=200 'BEGIN {
	srand(42)
	for (f = 0; f < files; f++)
		for (l = 0; l < 60; l++)
			line[f, l] = "file " f " line " l ": the original text of this line"
	for (c = 1; c <= commits; c++) {
		print "commit refs/heads/main"
		print "committer C O Mitter <committer@example.com> " (1112911993 + 60 * c) " +0000"
		msg = "commit number " c
		print "data " length(msg)
		print msg
		n = (c == 1) ? files : 3
		for (k = 0; k < n; k++) {
			if (c == 1) f = k
			else if (k == 0 && c % 3 == 0) f = 7
			else f = int(rand() * files)
			if (c > 1) {
				l = int(rand() * 60)
				line[f, l] = "file " f " line " l ": changed in commit " c
			}
			content = ""
			for (l = 0; l < 60; l++)
				content = content line[f, l] "\n"
			print "M 100644 inline dir" (f % 10) "/file" f ".txt"
			print "data " length(content)
			printf "%s", content
		}
		print ""
	}
}' | git fast-import --quiet
git symbolic-ref HEAD refs/heads/main
git repack -adfq --window=50 --depth=50
`

// Generated returns the path of the generated repository (a bare
// repository), building it on first use.
func Generated() (string, error) {
	dir, err := testgit.BuildFixture("odbbench-generated", oid.SHA1, generateScript)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "repo.git"), nil
}
