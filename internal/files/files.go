// Package files stores uploaded files (profile photos) under keys like
// "profile-photos/{userId}/profile.jpg". The default store is a folder in the
// data dir; any store that several instances share works behind the same
// interface.
package files

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound is returned for a missing key.
var ErrNotFound = errors.New("file not found")

// Store keeps files by key.
type Store interface {
	Put(ctx context.Context, key string, data []byte) error
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
	Delete(ctx context.Context, key string) error
}

// Local stores files in a folder.
type Local struct{ Dir string }

func (l *Local) path(key string) (string, error) {
	clean := filepath.Clean("/" + key)
	if clean == "/" || strings.Contains(key, "..") {
		return "", ErrNotFound
	}
	return filepath.Join(l.Dir, clean), nil
}

// Put writes data at key atomically (temp file, then rename).
func (l *Local) Put(_ context.Context, key string, data []byte) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return WriteAtomic(filepath.Dir(p), ".upload-*", data, func(string) string { return p })
}

// WriteAtomic writes data to a new temporary file in dir (named by pattern,
// as os.CreateTemp does) and then renames it to name(temporary file's base
// name), so a reader never sees a partly written file; the temporary file is
// removed when anything fails. Uploads and the .eml outbox both write this way.
func WriteAtomic(dir, pattern string, data []byte, name func(tmpBase string) string) error {
	tmp, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name(filepath.Base(tmp.Name())))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Open reads the file at key.
func (l *Local) Open(_ context.Context, key string) (io.ReadSeekCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	return f, err
}

// Delete removes the file at key; a missing file is not an error.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
