#define _GNU_SOURCE
#include "CSystemSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

/// Writes the failed step and errno to the report pipe and exits; async-signal-safe.
static void fail(int report, int step) {
    int message[2] = {step, errno};
    ssize_t ignored = write(report, message, sizeof message);
    (void)ignored;
    _exit(127);
}

/// Moves `fd` to `target` in the child (dup2 clears close-on-exec).
static int place(int fd, int target) {
    if (fd == target) return fcntl(fd, F_SETFD, 0);
    return dup2(fd, target) < 0 ? -1 : 0;
}

pid_t fieldtest_spawn_system(
    const char *path, char *const argv[], char *const envp[], const char *directory, int in_fd, int out_fd,
    int err_fd, int *error_number, int *failed_step) {
    int report[2];
    if (pipe(report) != 0 || fcntl(report[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(report[1], F_SETFD, FD_CLOEXEC) != 0) {
        *error_number = errno;
        *failed_step = 1;
        return -1;
    }
    pid_t parent = getpid();
    sigset_t all, previous;
    sigfillset(&all);
    // No handler of the harness may run in the child between fork and exec.
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        setpgid(0, 0);
#if defined(__linux__)
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail(report[1], 1);
        // The parent may have died before the request was made: then nobody sends the signal.
        if (getppid() != parent) _exit(127);
#endif
        // The harness ignores SIGPIPE, SIGINT and SIGTERM; an ignored signal stays ignored across exec.
        for (int s = 1; s < NSIG; s++) {
            if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
        }
        int in = in_fd, out = out_fd, err = err_fd;
        // Keep the three descriptors clear of 0, 1 and 2 before placing them.
        if (in <= 2) in = fcntl(in, F_DUPFD_CLOEXEC, 3);
        if (out <= 2) out = fcntl(out, F_DUPFD_CLOEXEC, 3);
        if (err <= 2) err = fcntl(err, F_DUPFD_CLOEXEC, 3);
        if (in < 0 || out < 0 || err < 0) fail(report[1], 1);
        if (place(in, 0) != 0 || place(out, 1) != 0 || place(err, 2) != 0) fail(report[1], 1);
        if (directory != NULL && chdir(directory) != 0) fail(report[1], 2);
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        fail(report[1], 3);
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        *error_number = saved;
        *failed_step = 1;
        return -1;
    }
    // Also set here, so the group exists before the caller can signal it.
    setpgid(pid, pid);
    int message[2] = {0, 0};
    ssize_t n;
    do { n = read(report[0], message, sizeof message); } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof message) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        *failed_step = message[0];
        *error_number = message[1];
        return -1;
    }
    return pid;
}
