package server

import (
	"context"

	"github.com/agendei/agendei/internal/hours"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/services"
	"github.com/agendei/agendei/internal/team"
)

// wireCopy gives the owner's LGPD copy (GET /api/account/data) its parts:
// each the same view the owner's screen reads, so what an answer never
// carries (a sealed address, a token) is never in the file either.
func wireCopy(c *core, p *providers, dom *domain) {
	d := c.d
	catalog := &services.Catalog{DB: d.DB, Clock: d.Clock}
	pros := &team.Service{DB: d.DB, Clock: d.Clock}
	week := &hours.Store{DB: d.DB}
	settings := &schedule.Settings{DB: d.DB, Clock: d.Clock}
	c.auth.OnCopy("perfil", part(dom.profiles.Get))
	c.auth.OnCopy("mensagens", part(dom.profiles.Messages))
	c.auth.OnCopy("profissionais", part(pros.List))
	c.auth.OnCopy("servicos", part(catalog.List))
	c.auth.OnCopy("horarios", part(week.Get))
	c.auth.OnCopy("regras", part(settings.Rules))
	c.auth.OnCopy("folgas", part(settings.DaysOff))
	// The practice's own holidays (and the national ones it opens) repeat every year: this year's list says them.
	c.auth.OnCopy("feriados", func(ctx context.Context, userID string) (any, error) {
		return settings.Holidays(ctx, userID, d.Clock.Now().Year())
	})
	c.auth.OnCopy("agendasPessoais", part(dom.calendar.List))
	c.auth.OnCopy("assinatura", part(dom.billing.Status))
	c.auth.OnCopy("whatsapp", part(p.wa.Status))
	c.auth.OnCopy("mercadoPago", part(p.mp.Status))
}

// part is a view's read as a part of the copy.
func part[T any](read func(context.Context, string) (T, error)) func(context.Context, string) (any, error) {
	return func(ctx context.Context, userID string) (any, error) { return read(ctx, userID) }
}
