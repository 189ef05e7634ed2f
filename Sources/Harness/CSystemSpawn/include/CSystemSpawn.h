#ifndef FIELDTEST_CSYSTEMSPAWN_H
#define FIELDTEST_CSYSTEMSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `directory` (NULL: the caller's),
/// standard input, output and error on `in_fd`, `out_fd`, `err_fd`, in a process group of its
/// own, with every signal at its default disposition and none blocked. On Linux the child also asks
/// for SIGKILL when the thread that started it dies (`PR_SET_PDEATHSIG`), and checks after asking
/// that its parent is still the caller (else it exits at once): a system never outlives a harness
/// that was killed with SIGKILL. Call it from a thread that lives as long as the process.
///
/// Done between fork and exec, which swift-subprocess and posix_spawn cannot do; everything the
/// child needs is prepared by the caller, and the child calls only async-signal-safe functions.
///
/// Returns the child's pid, or -1 with `*error_number` set to the errno of the failed step
/// (fork, chdir or exec; `*failed_step` is 1, 2 or 3).
pid_t fieldtest_spawn_system(
    const char *path, char *const argv[], char *const envp[], const char *directory, int in_fd, int out_fd,
    int err_fd, int *error_number, int *failed_step);

#endif
