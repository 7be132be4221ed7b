package llm

import (
	"crypto/sha256"
	"encoding/hex"
)

// CacheKey is the cache key of one model question: prefix (the kind,
// "claim:", "extract:", …) then the hex SHA-256 of parts, each followed by
// a NUL byte. Parts are the model's name, the prompt's version and the
// question's text; a change to any of them asks the model again.
func CacheKey(prefix string, parts ...string) string {
	h := sha256.New()
	for _, s := range parts {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return prefix + hex.EncodeToString(h.Sum(nil))
}
