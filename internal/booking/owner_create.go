// Owner create: an appointment (or a series) the owner writes into the
// agenda, previewed first and then created under the same hold as a client's
// booking.

package booking

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
	"github.com/google/uuid"
)

// OwnerInput is an appointment the owner writes into the agenda (a booking
// that came by phone or WhatsApp).
type OwnerInput struct {
	Input
	// NotifyClient sends the client the confirmation — by e-mail (invite,
	// cancel link) when they have one, and WhatsApp's when they have a phone
	// and the owner's number can carry it — and their reminders.
	NotifyClient bool `json:"notifyClient"`
	// OutsideHours is the owner's explicit yes to a time outside the
	// professional's hours (a closed day, a break, after closing).
	OutsideHours bool `json:"outsideHours"`
	// OverPersonal is the owner's explicit yes to a time the professional's
	// own calendar has busy ("Ocupado (agenda pessoal)", issue 42).
	OverPersonal bool `json:"overPersonal"`
	// Repeat makes it a series (nil: one appointment).
	Repeat *Repeat `json:"repeat"`
	// ChargeDeposit is "Cobrar sinal": the appointment waits for the
	// service's deposit like a client's booking (issue 29), and the client is
	// sent the Pix by e-mail (the owner's WhatsApp message is prefilled from
	// the details). One appointment at a time, of a service with a deposit.
	ChargeDeposit bool `json:"chargeDeposit"`
}

var (
	errDepositSeries  = httpx.Validation("O sinal é cobrado de um agendamento por vez, não de uma série.")
	errDepositNone    = httpx.Validation("Este serviço não tem sinal: defina o sinal no serviço para cobrá-lo.")
	errDepositNoPix   = httpx.Validation("Cadastre sua chave Pix no Perfil para cobrar sinal.")
	errDepositContact = httpx.Validation("Para cobrar sinal, informe o e-mail ou o telefone do cliente.")
	// Mercado Pago's Pix needs the payer's e-mail; the static Pix does not.
	errDepositUnreached = httpx.Validation("O Pix do Mercado Pago precisa do e-mail do cliente: informe o e-mail, ou cadastre sua chave Pix no Perfil para cobrar quem tem só telefone.")
)

var (
	errOutsideHours = httpx.NewError(http.StatusConflict, "outside_hours",
		"Fora do horário de atendimento: este horário não está entre os horários do profissional. Confirme para agendar mesmo assim.")
	errPersonalBusy = httpx.NewError(http.StatusConflict, "personal_busy",
		"Ocupado (agenda pessoal): este horário coincide com um compromisso da agenda pessoal do profissional. Confirme para agendar mesmo assim.")
	errBlocked = httpx.NewError(http.StatusConflict, "time_blocked",
		"Este horário está bloqueado na agenda. Remova o bloqueio ou escolha outro horário.")
	errOwnerChoice = httpx.Validation("Profissional ou serviço inválido. Escolha entre os ativos.")
	errOwnerRange  = httpx.Validation("Escolha uma data entre um ano atrás e dois anos à frente.")
)

// ownerReach is how far from today an owner may write an appointment: a
// year back (recording what happened) and two years ahead.
const ownerBack, ownerAhead = 365, 730

// owned is an owner's appointment (or series) checked and ready to hold.
type owned struct {
	st       *schedule.Setup
	pro      *schedule.Professional
	svc      *schedule.Service
	in       OwnerInput
	sessions []session // each date of the rule, with its own date, instant and time (moved or not)
	count    int       // with Extend, how many sessions to keep; else every date
}

// prepare checks an owner's appointment: the client, the choice, the dates.
func (s *Service) prepare(ctx context.Context, ownerID string, in OwnerInput) (*owned, error) {
	day, minute, err := validateWhen(&in.Input)
	if err != nil {
		return nil, err
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	svc, pro := st.Services[in.ServiceID], st.Professionals[in.ProfessionalID]
	if svc == nil || !svc.Active || pro == nil || !pro.Active {
		return nil, errOwnerChoice
	}
	now := s.Clock.Now()
	last := schedule.LastDay(now, st.Loc, ownerAhead)
	if ds := day.Format("2006-01-02"); ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > last {
		return nil, errOwnerRange
	}
	dates, err := in.Repeat.dates(day, last)
	if err != nil {
		return nil, err
	}
	count := len(dates)
	if r := in.Repeat; r != nil && r.Extend && r.Count > 0 {
		// Candidates past the count, for the taken dates to be replaced by.
		wide := *r
		wide.Count = MaxSeries
		if dates, err = wide.dates(day, last); err != nil {
			return nil, err
		}
	}
	skip := map[string]bool{}
	moved := map[string]SessionMove{}
	if r := in.Repeat; r != nil {
		for _, d := range r.Skip {
			skip[d] = true
		}
		for _, m := range r.Moves {
			moved[m.Date] = m
		}
	}
	sessions := make([]session, len(dates))
	for i, d := range dates {
		ds := d.Format("2006-01-02")
		ss := session{day: d, date: ds, start: slots.At(d, minute, st.Loc), wall: in.Time, skipped: skip[ds]}
		if m, ok := moved[ds]; ok {
			to, err1 := slots.ParseDate(m.To)
			at, err2 := slots.ParseHHMM(m.Time)
			if err1 != nil || err2 != nil || to.Sub(d) > 6*24*time.Hour || d.Sub(to) > 6*24*time.Hour || m.To > last {
				return nil, errSessionMove
			}
			ss.day, ss.start, ss.wall = to, slots.At(to, at, st.Loc), m.Time
			delete(moved, ds)
		}
		sessions[i] = ss
	}
	if len(moved) > 0 {
		return nil, errSessionMove // a move of a date the series does not have
	}
	return &owned{st: st, pro: pro, svc: svc, in: in, sessions: sessions, count: count}, nil
}

// span is the first and last date the sessions take.
func (o *owned) span() (time.Time, time.Time) {
	first, last := o.sessions[0].day, o.sessions[0].day
	for _, ss := range o.sessions {
		if ss.day.Before(first) {
			first = ss.day
		}
		if ss.day.After(last) {
			last = ss.day
		}
	}
	return first, last
}

// Preview lists the dates an owner's appointment (or series) would take
// and which of them are not free, without booking anything: the owner
// chooses to skip those, and Create checks them again under the lock.
func (s *Service) Preview(ctx context.Context, ownerID string, in OwnerInput) ([]Occurrence, error) {
	o, err := s.prepare(ctx, ownerID, in)
	if err != nil {
		return nil, err
	}
	first, last := o.span()
	// The weeks of the series, for the free times offered instead of a taken date.
	busy, err := readBusy(ctx, s.DB, ownerID, o.st.Loc, []string{o.pro.ID}, first.AddDate(0, 0, -6-slots.ReachDays), last.AddDate(0, 0, 6+slots.ReachDays))
	if err != nil {
		return nil, err
	}
	plan := shown(s.check(o, busy))
	for i := range plan {
		if plan[i].Code != "" && o.in.Repeat != nil {
			plan[i].Alternatives = s.alternatives(o, busy, plan[i].Date)
		}
	}
	return plan, nil
}

// Create writes an owner's appointment, or a whole series of them: any
// active professional and service, from a year back to two years ahead —
// outside the professional's hours only with OutsideHours — but never over
// another appointment or a block, decided under the same lock as a client's
// booking (Hold). A series is checked date by date under one lock of the
// professional and saved whole or not at all: a date that is not free
// refuses it (series_conflicts, naming the dates) unless the owner skips
// it. It returns the first appointment's id.
func (s *Service) Create(ctx context.Context, ownerID string, in OwnerInput) (string, error) {
	o, err := s.prepare(ctx, ownerID, in)
	if err != nil {
		return "", err
	}
	st, pro, svc, in := o.st, o.pro, o.svc, o.in // in as validated: trimmed, the phone's digits
	var deposit *depositPlan
	if in.ChargeDeposit {
		if in.Repeat != nil {
			return "", errDepositSeries
		}
		p, err := deposits.PolicyOf(ctx, s.DB, ownerID, svc.ID)
		if err != nil {
			return "", err
		}
		if p.Amount(svc.PriceCents) <= 0 {
			return "", errDepositNone
		}
		if in.ClientEmail == "" && in.ClientPhone == "" {
			return "", errDepositContact
		}
		var unreached bool
		if deposit, unreached, err = s.planDeposit(ctx, st, svc, in.ClientEmail); err != nil {
			return "", err
		}
		if unreached {
			return "", errDepositUnreached
		}
		if deposit == nil {
			return "", errDepositNoPix
		}
		deposit.source = deposits.ByOwner
	}
	var dep *deposits.Deposit
	var asked booked
	var firstID string
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var plan []Occurrence
		first, last := o.span()
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: first, Until: last, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			if busy[pro.ID] == nil {
				return errOwnerChoice // deleted since the setup was read
			}
			plan = s.check(o, busy)
			if in.Repeat == nil {
				return plan[0].err
			}
			var taken []string
			kept := 0
			for _, oc := range plan {
				if oc.Skipped || oc.dropped {
					continue
				}
				if oc.Code != "" {
					taken = append(taken, brfmt.Date(oc.To))
				}
				kept++
			}
			if len(taken) > 0 {
				return errConflicts(taken)
			}
			if kept == 0 {
				return errRepeat
			}
			return nil
		}, func() error {
			var series any
			if in.Repeat != nil {
				series = uuid.NewString()
			}
			stamp := s.Clock.Now()
			var booked []booked
			for i, oc := range plan {
				if oc.Skipped || oc.dropped {
					continue
				}
				ss := o.sessions[i]
				id := uuid.NewString()
				token, hash := auth.OpaqueToken()
				local := time.Unix(ss.start*60, 0).In(st.Loc)
				if err := insertAppointment(ctx, tx, newAppointment{ID: id, OwnerID: ownerID, Pro: pro, Svc: svc, Client: &in.Input, Remind: in.NotifyClient && deposit == nil, AwaitingDeposit: deposit != nil,
					Date: oc.To, Time: ss.wall, Start: local, TokenHash: hash, Series: series, At: stamp}); err != nil {
					return err
				}
				if firstID == "" {
					firstID = id
				}
				b := bookedOf(id, oc.To, in, pro, svc, token, ownerID, st.Name, local)
				b.Time = ss.wall
				if deposit != nil {
					var err error
					if dep, err = s.openDeposit(ctx, tx, deposit, ownerID, b.Booked, stamp); err != nil {
						return err
					}
					asked = b
				}
				booked = append(booked, b)
			}
			title, desc := "Agendamento criado", fmt.Sprintf("%s: %s com %s em %s às %s, registrado na agenda.", in.ClientName, svc.Name, pro.Name, brfmt.Date(booked[0].Date), in.Time)
			if len(booked) > 1 {
				title = "Série criada"
				desc = fmt.Sprintf("%s: %d sessões de %s com %s às %s, de %s a %s.", in.ClientName, len(booked), svc.Name, pro.Name, in.Time,
					brfmt.Date(booked[0].Date), brfmt.Date(booked[len(booked)-1].Date))
			}
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, title, desc, firstID); err != nil {
				return err
			}
			if dep != nil || !in.NotifyClient {
				return nil // with a deposit, the Pix goes first (chargeDeposit) and the confirmation once paid
			}
			// WhatsApp's confirmation of the first session, as a public
			// booking gets it, when the owner's number can carry it.
			if _, err := s.confirmByWhatsApp(ctx, tx, booked[0]); err != nil {
				return err
			}
			return s.notifyCreated(ctx, tx, stamp, booked)
		})
	})
	if err != nil {
		return "", err
	}
	if dep != nil {
		s.chargeDeposit(ctx, deposit, dep, asked)
	}
	return firstID, nil
}

// notifyCreated sends an owner-made appointment's client one confirmation
// e-mail (of the first session) and a reminder before each session; a
// client with only a phone gets the reminders when WhatsApp can carry
// them, as after a public booking.
func (s *Service) notifyCreated(ctx context.Context, tx *db.Tx, stamp time.Time, booked []booked) error {
	byEmail := booked[0].ClientEmail != "" && s.Mailer != nil
	if !byEmail && (booked[0].ClientPhone == "" || s.WhatsApp == nil) {
		return nil
	}
	for i, b := range booked {
		var err error
		if i == 0 && byEmail {
			err = s.confirmToClient(ctx, tx, stamp, b)
		} else {
			err = s.remindLater(ctx, tx, stamp, b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func bookedOf(id, date string, in OwnerInput, pro *schedule.Professional, svc *schedule.Service, token, ownerID, ownerName string, local time.Time) booked {
	return booked{Booked: &Booked{ID: id, Date: date, Time: in.Time, ProfessionalName: pro.Name, ServiceName: svc.Name, Duration: svc.Duration,
		PriceCents: svc.PriceCents, CancelToken: token}, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
		OwnerID: ownerID, OwnerName: ownerName, Start: local}
}

// yes is what the owner said yes to when writing an appointment: a time
// outside the professional's hours, one over busy time imported from the
// professional's own calendar.
type yes struct{ outsideHours, personal bool }

// mayHold decides, under the professional's lock, whether an owner may put
// an appointment of svc at start: never over a block or another
// appointment; over the professional's own calendar's busy time, or outside
// the professional's hours, only with the owner's yes.
func (s *Service) mayHold(st *schedule.Setup, p *schedule.Professional, svc *schedule.Service, day time.Time, start int64, busy BusyDays, ok yes) error {
	if busy.Blocked(p.ID, day, start, svc.Duration, svc.Before, svc.After) {
		return errBlocked
	}
	near := busy.held(p.ID, day)
	if slots.Collides(start, svc.Duration, svc.Before, svc.After, near) {
		return errSlotTaken
	}
	if !ok.personal && busy.Personal(p.ID, day, start, svc.Duration, svc.Before, svc.After) {
		return errPersonalBusy
	}
	if ok.outsideHours {
		return nil
	}
	// The professional's hours, as a client would be held to them, but an
	// owner may write a time that has passed or comes at short notice.
	d, _ := s.dayOf(st, p, svc, day, near)
	d.Now, d.Notice = start, 0
	if slots.Why(d, start) != slots.Offered {
		return errOutsideHours
	}
	return nil
}
