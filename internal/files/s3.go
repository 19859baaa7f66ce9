package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 stores files in a bucket of any S3-compatible service (AWS S3, MinIO,
// Cloudflare R2, Backblaze B2, …), so that several instances share them.
type S3 struct {
	client *minio.Client
	bucket string
}

// NewS3 connects to the bucket described by a URL of the form
// https://ACCESS_KEY:SECRET_KEY@host[:port]/bucket?region=sa-east-1
// (http:// for a service without TLS, e.g. a local MinIO).
func NewS3(raw string) (*S3, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("AGENDEI_S3_URL must look like https://KEY:SECRET@host/bucket?region=…")
	}
	bucket := strings.Trim(u.Path, "/")
	if bucket == "" || strings.Contains(bucket, "/") {
		return nil, errors.New("AGENDEI_S3_URL must name exactly one bucket in its path")
	}
	secret, _ := u.User.Password()
	client, err := minio.New(u.Host, &minio.Options{
		Creds:  credentials.NewStaticV4(u.User.Username(), secret, ""),
		Secure: u.Scheme == "https",
		Region: u.Query().Get("region"),
	})
	if err != nil {
		return nil, err
	}
	return &S3{client: client, bucket: bucket}, nil
}

// Check verifies that the bucket exists and is reachable.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("bucket %s does not exist", s.bucket)
	}
	return nil
}

// Put uploads data at key.
func (s *S3) Put(ctx context.Context, key string, data []byte) error {
	_, err := s.client.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{})
	return err
}

// Open downloads the object at key.
func (s *S3) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, err
	}
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		if minio.ToErrorResponse(err).Code == "NoSuchKey" {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return obj, nil
}

// Delete removes the object at key; a missing object is not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
	if err != nil && minio.ToErrorResponse(err).Code == "NoSuchKey" {
		return nil
	}
	return err
}
