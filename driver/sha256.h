// SHA-256 of byte buffers, via OpenSSL libcrypto (EVP interface).
//
// Used by the test-vector bundles (driver/bundle.h) to checksum every file.
// Digests are returned as 64 lower-case hex digits. A failure inside
// OpenSSL is an internal error (it cannot be caused by user input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tandem::driver {

std::string sha256_hex(const void* data, std::size_t bytes);
inline std::string sha256_hex(const std::vector<std::uint8_t>& v) {
  return sha256_hex(v.data(), v.size());
}

}  // namespace tandem::driver
