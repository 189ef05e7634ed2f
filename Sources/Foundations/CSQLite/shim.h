// SQLite, for the on-device stores: accounts, journals, caches (Debian: libsqlite3-dev).
#include <sqlite3.h>
