// Package smtptest runs a real SMTP server in-process (emersion/go-smtp) that
// keeps what it receives, for tests of code that sends mail.
package smtptest

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one received message.
type Message struct {
	From string
	To   []string
	Data string
}

// Server is a running SMTP server on loopback.
type Server struct {
	Addr     string
	mu       sync.Mutex
	messages []Message
	// Delay makes every DATA command slow, to test a sluggish mail server.
	Delay time.Duration
	// Fail makes every DATA command fail (temporary error), to test retries.
	Fail bool
	// User and Pass, when set, are required with AUTH PLAIN.
	User, Pass string
	// OnMessage, when set, is handed each received message instead of
	// keeping it (cmd/agendei-bench counts thousands without holding them).
	// Set it before the first message arrives.
	OnMessage func(Message)
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s, stop, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s
}

// Listen runs a server on loopback until stop is called, outside a test
// (the benchmark's local SMTP server).
func Listen() (s *Server, stop func(), err error) {
	s = &Server{}
	srv := smtp.NewServer(&backend{s: s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	s.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	return s, func() { srv.Close() }, nil
}

// Messages returns what was received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

type backend struct{ s *Server }

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s     *Server
	authd bool
	msg   Message
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != x.s.User || password != x.s.Pass {
			return errors.New("invalid credentials")
		}
		x.authd = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.User != "" && !x.authd {
		return smtp.ErrAuthRequired
	}
	x.msg.From = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if x.s.Delay > 0 {
		time.Sleep(x.s.Delay)
	}
	if x.s.Fail {
		return &smtp.SMTPError{Code: 451, Message: "try again later"}
	}
	x.msg.Data = string(b)
	if x.s.OnMessage != nil {
		x.s.OnMessage(x.msg)
		return nil
	}
	x.s.mu.Lock()
	x.s.messages = append(x.s.messages, x.msg)
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.msg = Message{} }
func (x *session) Logout() error { return nil }
