package files_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/agendei/agendei/internal/files"
)

// Both stores behave the same: put, read back, replace, delete, missing keys.
func TestStores_RoundTrip(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("agendei"); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(s3srv.Close)
	s3, err := files.NewS3("http://KEY:SECRET@" + s3srv.Listener.Addr().String() + "/agendei?region=us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s3.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	stores := map[string]files.Store{"local": &files.Local{Dir: t.TempDir()}, "s3": s3}
	for name, st := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			key := "profile-photos/u1/profile.jpg"
			if _, err := st.Open(ctx, key); !errors.Is(err, files.ErrNotFound) {
				t.Fatalf("missing key: %v", err)
			}
			for _, body := range []string{"first", "second"} {
				if err := st.Put(ctx, key, []byte(body)); err != nil {
					t.Fatal(err)
				}
			}
			f, err := st.Open(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(f)
			f.Close()
			if string(got) != "second" {
				t.Fatalf("read %q", got)
			}
			if err := st.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
			if err := st.Delete(ctx, key); err != nil {
				t.Fatalf("deleting a missing key: %v", err)
			}
			if _, err := st.Open(ctx, key); !errors.Is(err, files.ErrNotFound) {
				t.Fatalf("after delete: %v", err)
			}
		})
	}
	if _, err := files.NewS3("s3://bucket"); err == nil {
		t.Fatal("a bad URL must be refused")
	}
}

func TestLocal_RefusesPathsOutsideItsFolder(t *testing.T) {
	l := &files.Local{Dir: t.TempDir()}
	if err := l.Put(context.Background(), "../../etc/passwd", []byte("x")); err == nil {
		t.Fatal("path traversal accepted")
	}
}
