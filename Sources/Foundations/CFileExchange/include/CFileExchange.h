#ifndef FIELDTEST_CFILEEXCHANGE_H
#define FIELDTEST_CFILEEXCHANGE_H

/// Swaps the files named `a` and `b` atomically: each name then holds the other's file (Linux
/// `renameat2` with `RENAME_EXCHANGE`). Returns 0, or -1 with `errno` set: `ENOENT` when either is
/// missing, `EINVAL` or `ENOSYS` where the file system or system cannot exchange.
int fieldtest_exchange_files(const char *a, const char *b);

#endif
