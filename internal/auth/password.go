package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: OWASP's minimum (19 MiB, 2 passes, 1 lane). Stored in
// each hash, so they can be raised later without breaking old hashes.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// hashSlots bounds concurrent hashing to one per CPU: each costs 19 MiB, a
// burst of logins must not exhaust memory, and more at once would not finish
// sooner.
var hashSlots = make(chan struct{}, runtime.NumCPU())

// HashSecret returns the argon2id PHC string of secret.
func HashSecret(secret string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	hashSlots <- struct{}{}
	key := argon2.IDKey([]byte(secret), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	<-hashSlots
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

var errBadHash = errors.New("malformed argon2id hash")

// VerifySecret reports whether secret matches the PHC string encoded.
func VerifySecret(encoded, secret string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil {
		return false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, errBadHash
	}
	hashSlots <- struct{}{}
	got := argon2.IDKey([]byte(secret), salt, iters, mem, threads, uint32(len(want)))
	<-hashSlots
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// normalizeKeyword is how a recovery keyword is compared: a secret answer
// typed months later should not fail on case or stray spaces.
func normalizeKeyword(k string) string {
	return strings.ToLower(strings.Join(strings.Fields(k), " "))
}

// dummyHash is verified against when an e-mail is unknown, so a login takes
// as long whether or not the account exists.
var dummyHash = func() string {
	h, err := HashSecret("agendei-dummy-password")
	if err != nil {
		panic(err)
	}
	return h
}()

// checkSecrets is the rule for a new password and recovery keyword (signup,
// recovery, a professional's invitation); blanks are each caller's to say.
func checkSecrets(password, keyword string) error {
	switch {
	case utf8.RuneCountInString(password) < minPassword:
		return errPasswordShort
	case utf8.RuneCountInString(keyword) < minKeyword:
		return errKeywordShort
	case len(password) > maxSecret || len(keyword) > maxSecret:
		return errSecretLong
	}
	return nil
}

// hashSecrets hashes a new password and recovery keyword for storing.
func hashSecrets(password, keyword string) (pwHash, kwHash string, err error) {
	if pwHash, err = HashSecret(password); err != nil {
		return "", "", err
	}
	kwHash, err = HashSecret(normalizeKeyword(keyword))
	return pwHash, kwHash, err
}
