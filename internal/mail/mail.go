// Package mail sends Agendei's e-mail: through SMTP when AGENDEI_SMTP_URL is
// set, otherwise as .eml files in <data dir>/outbox. Messages go through the
// job queue, so a slow or broken mail server delays mail but never fails the
// request that caused it, and failed sends are retried.
package mail

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/agendei/agendei/internal/files"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/db"
)

// Attachment is a file sent with a message (e.g. an .ics invite).
type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Data        []byte `json:"data"`
	// ContentID names an inline part (Message.Inline) for the HTML's
	// <img src="cid:…"> (Content.Image); "" on an attachment.
	ContentID string `json:"contentId,omitempty"`
}

// Message is one e-mail.
type Message struct {
	To          string       `json:"to"`
	Subject     string       `json:"subject"`
	Text        string       `json:"text"`
	HTML        string       `json:"html"`
	Attachments []Attachment `json:"attachments,omitempty"`
	// Inline are parts the HTML shows in its body (multipart/related, each
	// by its ContentID), such as the Pix QR code.
	Inline []Attachment `json:"inline,omitempty"`
	// ReplyTo is where a reply goes ("": to From): on an e-mail to a
	// client, the practice's address (QueueToClient), so that a client who
	// answers reaches the practice, not the no-reply sender.
	ReplyTo string `json:"replyTo,omitempty"`
	// ID is the Message-ID's left part (before "@"), "" for a random one.
	// The delivery job sets it from the job's id, so a send that is tried
	// again after a crash (SMTP takes no idempotency key) carries the same
	// Message-ID, and mailboxes that fold repeats show it once.
	ID string `json:"-"`
}

// Sender delivers a message now.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// build turns a Message into a MIME message.
func build(from string, m Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return nil, fmt.Errorf("reply-to: %w", err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.ID != "" {
		msg.SetMessageIDWithValue(m.ID + "@agendei")
	} else {
		msg.SetMessageID()
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Inline {
		opts := []gomail.FileOption{gomail.WithFileContentID("<" + a.ContentID + ">")}
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		msg.EmbedReadSeeker(a.Name, bytes.NewReader(a.Data), opts...)
	}
	for _, a := range m.Attachments {
		opts := []gomail.FileOption{}
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		msg.AttachReadSeeker(a.Name, bytes.NewReader(a.Data), opts...)
	}
	return msg, nil
}

// Outbox writes each message as an .eml file into a folder.
type Outbox struct {
	Dir  string
	From string
}

// Send writes m to the outbox, atomically (temp file, then rename).
func (o *Outbox) Send(_ context.Context, m Message) error {
	msg, err := build(o.From, m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		return err
	}
	return files.WriteAtomic(o.Dir, ".mail-*", buf.Bytes(), func(tmp string) string {
		return filepath.Join(o.Dir, fmt.Sprintf("%s-%s.eml", time.Now().UTC().Format("20060102T150405.000000000"), tmp[len(".mail-"):]))
	})
}

// SMTP sends through a mail server given as smtp://user:pass@host:port
// (STARTTLS when offered) or smtps://… (TLS from the start).
type SMTP struct {
	URL  *url.URL
	From string
}

// Send delivers m to the SMTP server.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg, err := build(s.From, m)
	if err != nil {
		return err
	}
	port := 587
	if s.URL.Scheme == "smtps" {
		port = 465
	}
	if p := s.URL.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return fmt.Errorf("smtp port: %w", err)
		}
	}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(20 * time.Second), gomail.WithTLSPolicy(gomail.TLSOpportunistic)}
	if s.URL.Scheme == "smtps" {
		opts = append(opts, gomail.WithSSL())
	}
	if user := s.URL.User.Username(); user != "" {
		pass, _ := s.URL.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(user), gomail.WithPassword(pass))
	}
	c, err := gomail.NewClient(s.URL.Hostname(), opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// NewSender returns the SMTP sender when smtpURL is set, otherwise the outbox.
func NewSender(smtpURL, dataDir, from string) (Sender, error) {
	if smtpURL == "" {
		return &Outbox{Dir: filepath.Join(dataDir, "outbox"), From: from}, nil
	}
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, err
	}
	return &SMTP{URL: u, From: from}, nil
}

const jobKind = "mail.send"

// Mailer queues messages for delivery by the job queue.
type Mailer struct {
	queue *jobs.Queue
}

// NewMailer registers the delivery job with q and returns the Mailer.
func NewMailer(q *jobs.Queue, s Sender) *Mailer {
	q.Register(jobKind, func(ctx context.Context, payload []byte) error {
		var m Message
		if err := json.Unmarshal(payload, &m); err != nil {
			return err
		}
		m.ID = jobs.ID(ctx)
		return s.Send(ctx, m)
	})
	return &Mailer{queue: q}
}

// Queue schedules m, an owner's account e-mail that names no client,
// inside the caller's transaction when x is one.
func (m *Mailer) Queue(ctx context.Context, x db.Querier, msg Message) error {
	return m.QueueAbout(ctx, x, jobs.About{}, msg)
}

// QueueAbout schedules m, written about an appointment or a client (to
// them, or to the owner naming them): about says whose, so that erasing
// the client drops it (jobs.About).
func (m *Mailer) QueueAbout(ctx context.Context, x db.Querier, about jobs.About, msg Message) error {
	if strings.TrimSpace(msg.To) == "" {
		return nil
	}
	return m.queue.Enqueue(ctx, x, about, jobKind, msg, time.Time{}, 8)
}

// QueueToClient schedules m, an e-mail to a client about the practice of
// about.UserID, with the practice's e-mail as its Reply-To (PracticeEmail):
// a client's reply reaches the practice. The owner's own e-mails go by
// Queue or QueueAbout, with none.
func (m *Mailer) QueueToClient(ctx context.Context, x db.Querier, about jobs.About, msg Message) error {
	if strings.TrimSpace(msg.To) == "" {
		return nil
	}
	replyTo, err := PracticeEmail(ctx, x, about.UserID)
	if err != nil {
		return err
	}
	msg.ReplyTo = replyTo
	return m.QueueAbout(ctx, x, about, msg)
}

// PracticeEmail is the address a practice's clients write to: the public
// profile's contact e-mail, else the owner's account e-mail ("" for an
// unknown owner).
func PracticeEmail(ctx context.Context, x db.Querier, ownerID string) (string, error) {
	var contact, account string
	err := x.QueryRowContext(ctx, `SELECT COALESCE(p.contact_email, ''), u.email FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = ?`, ownerID).
		Scan(&contact, &account)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if contact = strings.TrimSpace(contact); contact != "" {
		return contact, nil
	}
	return strings.TrimSpace(account), nil
}
