package records

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// Files attached to a record (issue 43 §1), under the profile photo's upload
// rules: at most MaxFileBytes, the kind read from the bytes (never the name:
// PDF, JPEG, PNG, WebP, GIF), a bounded number an hour per account. The
// bytes are sealed with the owner's data key before the file store sees
// them, so the store (a folder, a bucket) alone reveals nothing either.

// MaxFileBytes is the upload limit (the photo's, SPEC §5: 5 MB).
const MaxFileBytes = 5 << 20

var ruleFileAccount = ratelimit.Rule{Name: "record-file:account", Max: 30, Window: time.Hour}

var (
	errFileType  = httpx.NewError(http.StatusBadRequest, "invalid_file_type", "Anexe um PDF ou uma imagem (JPEG, PNG, WebP ou GIF).")
	errFileLarge = httpx.NewError(http.StatusRequestEntityTooLarge, "file_too_large", "Anexe um arquivo de até 5MB.")
	errFileName  = httpx.Validation("O nome do arquivo deve ter até 200 caracteres.")
)

// allowed are the kinds a record keeps, by their bytes.
var allowed = map[string]string{"application/pdf": ".pdf", "image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "image/gif": ".gif"}

// FileStore is where sealed files go (internal/files: a folder or S3).
type FileStore interface {
	Put(ctx context.Context, key string, data []byte) error
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
	Delete(ctx context.Context, key string) error
}

// File is an attached file as the record lists it.
type File struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int    `json:"size"`
	Signature   string `json:"signature"`
}

// Attach seals a file into the record the acting professional keeps.
func (s *Service) Attach(ctx context.Context, id, name string, data []byte) (*Record, error) {
	if len(data) > MaxFileBytes {
		return nil, errFileLarge
	}
	ct := http.DetectContentType(data)
	ext, ok := allowed[ct]
	if !ok {
		return nil, errFileType
	}
	name = strings.TrimSpace(path.Base(strings.ReplaceAll(name, "\\", "/")))
	if name == "" || name == "." || name == "/" {
		name = "anexo" + ext
	}
	if utf8.RuneCountInString(name) > 200 {
		return nil, errFileName
	}
	if err := s.Limiter.Check(ctx, ruleFileAccount, accountOf(ctx)); err != nil {
		return nil, err
	}
	fileID := uuid.NewString()
	key := "records/" + fileID
	var stored bool
	rec, err := s.onRecord(ctx, id, "attach", func(tx *db.Tx, a actor, box *secretbox.Box) error {
		sealed, err := box.Seal(base64.StdEncoding.EncodeToString(data), "record:"+id+":file:"+fileID)
		if err != nil {
			return err
		}
		sealedName, err := box.Seal(name, "record:"+id+":file-name:"+fileID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO record_files (id, record_id, owner_id, name, content_type, size, store_key, author_account, author_name, author_council, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, fileID, id, a.owner, sealedName, ct, len(data), key, a.account, a.name, a.council, s.Clock.Now()); err != nil {
			return err
		}
		// Stored before the row commits: a file without its row is an
		// orphan nobody can open (its key is sealed inside), never a row
		// without its file.
		stored = true
		return s.Files.Put(ctx, key, []byte(sealed))
	})
	if err != nil && stored {
		_ = s.Files.Delete(context.WithoutCancel(ctx), key)
	}
	return rec, err
}

// Download opens a file of a record the acting professional keeps; logged.
func (s *Service) Download(ctx context.Context, id, fileID string) (name, contentType string, data []byte, err error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return "", "", nil, err
	}
	var key, sealedName string
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT f.name, f.content_type, f.store_key FROM record_files f JOIN records r ON r.id = f.record_id
			WHERE f.id = ? AND f.record_id = ? AND r.owner_id = ? AND r.professional_id = ?`, fileID, id, a.owner, a.professional).Scan(&sealedName, &contentType, &key)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		return s.log(ctx, tx, a, id, "", "download")
	})
	if err != nil {
		return "", "", nil, err
	}
	box, err := s.keyOf(ctx, s.DB, a.owner)
	if err != nil {
		return "", "", nil, err
	}
	if name, err = box.Open(sealedName, "record:"+id+":file-name:"+fileID); err != nil {
		return "", "", nil, err
	}
	f, err := s.Files.Open(ctx, key)
	if err != nil {
		return "", "", nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err != nil {
		return "", "", nil, err
	}
	plain, err := box.Open(string(raw), "record:"+id+":file:"+fileID)
	if err != nil {
		return "", "", nil, err
	}
	data, err = base64.StdEncoding.DecodeString(plain)
	return name, contentType, data, err
}

// keeps answers 404 unless the acting professional keeps the record.
func (s *Service) keeps(ctx context.Context, id string) error {
	a, err := s.keeper(ctx)
	if err != nil {
		return err
	}
	var ok bool
	if err := s.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE id = ? AND owner_id = ? AND professional_id = ?)`, id, a.owner, a.professional).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errNotFound
	}
	return nil
}

// files fills a record's attached files.
func (s *Service) files(ctx context.Context, q db.Querier, box *secretbox.Box, loc *time.Location, rec *Record) error {
	rec.Files = []File{}
	return db.Each(ctx, q, `SELECT id, name, content_type, size, author_name, author_council, created_at FROM record_files WHERE record_id = ? ORDER BY created_at DESC, id`,
		[]any{rec.ID}, func(r *sql.Rows) error {
			var f File
			var who, council string
			var at time.Time
			if err := r.Scan(&f.ID, &f.Name, &f.ContentType, &f.Size, &who, &council, &at); err != nil {
				return err
			}
			var err error
			if f.Name, err = box.Open(f.Name, "record:"+rec.ID+":file-name:"+f.ID); err != nil {
				return err
			}
			f.Signature = signature(who, council, at.In(loc))
			rec.Files = append(rec.Files, f)
			return nil
		})
}

// storeKeys are a record's files in the store (a destruction deletes them).
func storeKeys(ctx context.Context, q db.Querier, id string) ([]string, error) {
	var keys []string
	err := db.Each(ctx, q, `SELECT store_key FROM record_files WHERE record_id = ?`, []any{id}, func(r *sql.Rows) error {
		var k string
		if err := r.Scan(&k); err != nil {
			return err
		}
		keys = append(keys, k)
		return nil
	})
	return keys, err
}

func (h *Handlers) attach(w http.ResponseWriter, r *http.Request) error {
	// Whose record it is, before a byte of the upload is read.
	if err := h.Svc.keeps(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxFileBytes+64<<10)
	file, header, err := r.FormFile("file")
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errFileLarge
		}
		return httpx.Validation("Escolha um arquivo para anexar.")
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxFileBytes+1))
	if err != nil {
		return errFileLarge
	}
	rec, err := h.Svc.Attach(r.Context(), r.PathValue("id"), header.Filename, data)
	return recordAnswer(w, http.StatusCreated, rec, err)
}

func (h *Handlers) download(w http.ResponseWriter, r *http.Request) error {
	name, ct, data, err := h.Svc.Download(r.Context(), r.PathValue("id"), r.PathValue("file"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, err = w.Write(data)
	return err
}
