package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/kgeval/kgeval"
)

// Fingerprint is the fingerprint a run records of its dataset: the hex
// sha256 of the file's bytes. A resumed run must have the same.
func Fingerprint(content []byte) string {
	h := sha256.Sum256(content)
	return hex.EncodeToString(h[:])
}

// FingerprintFile is the Fingerprint of the file at path. Errors: EINVALID
// when it cannot be read.
func FingerprintFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
	}
	return Fingerprint(b), nil
}

// fingerprintOf is the Fingerprint of what r holds.
func fingerprintOf(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
