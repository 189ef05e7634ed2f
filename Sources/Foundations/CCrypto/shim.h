// OpenSSL's libcrypto (3.0 or later), for hashing, MACs, key derivation and AES-GCM
// (Debian: libssl-dev; Homebrew: openssl@3).
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
