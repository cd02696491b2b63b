// SHA-256 through OpenSSL's EVP digest API (see driver/sha256.h).
#include "driver/sha256.h"

#include <openssl/evp.h>

#include <memory>

#include "isa/error.h"

namespace tandem::driver {

std::string sha256_hex(const void* data, std::size_t bytes) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  TANDEM_ASSERT(ctx != nullptr, "EVP_MD_CTX_new failed");
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  TANDEM_ASSERT(EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1, "SHA-256 init failed");
  TANDEM_ASSERT(EVP_DigestUpdate(ctx.get(), data, bytes) == 1, "SHA-256 update failed");
  TANDEM_ASSERT(EVP_DigestFinal_ex(ctx.get(), md, &len) == 1, "SHA-256 final failed");
  TANDEM_ASSERT(len == 32, "SHA-256 digest has " << len << " bytes");
  static const char* kHex = "0123456789abcdef";
  std::string s(64, '0');
  for (unsigned i = 0; i < 32; ++i) {
    s[2 * i] = kHex[md[i] >> 4];
    s[2 * i + 1] = kHex[md[i] & 15];
  }
  return s;
}

}  // namespace tandem::driver
