//go:build unix && cgo

package execve

/*
#include <signal.h>
#include <string.h>

// ignored_at_start[s] is 1 when signal s was ignored when the process
// started: read by a constructor, which runs before the Go runtime
// installs its handlers.
static unsigned char ignored_at_start[NSIG];

__attribute__((constructor)) static void execve_save_ignored(void) {
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN)
			ignored_at_start[s] = 1;
	}
}

static void execve_restore_ignored(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	for (int s = 1; s < NSIG; s++)
		if (ignored_at_start[s])
			sigaction(s, &sa, NULL);
}
*/
import "C"

import "syscall"

// Exec runs the program at path in place of the process, with argv and
// env, the signals that were ignored when the process started ignored
// again. It returns only on failure.
func Exec(path string, argv, env []string) error {
	C.execve_restore_ignored()
	return syscall.Exec(path, argv, env)
}
