import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import DashboardPage from './DashboardPage'

afterEach(() => vi.unstubAllGlobals())

const items = { profile: true, professional: true, service: true, availability: true }

function setup(trial: { inTrial: boolean; expired: boolean; daysRemaining: number }, complete = true) {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    if (c.url === '/api/setup-status')
      return {
        status: 200,
        body: { complete, items: complete ? items : { ...items, professional: false }, publicUsername: 'ana', trial: { ...trial, endsAt: null } },
      }
    return undefined
  })
  renderRoutes([{ path: '/dashboard', Component: DashboardPage }], '/dashboard')
}

it('shows the checklist with its shortcut until setup is complete', async () => {
  setup({ inTrial: true, expired: false, daysRemaining: 7 }, false)
  expect(await screen.findByText('Complete sua configuração')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Adicionar Profissional' })).toHaveAttribute('href', '/professionals')
  expect(screen.queryByRole('link', { name: 'Configurar Perfil' })).not.toBeInTheDocument()
})

it('counts trial days without a subscribe button above 3 days', async () => {
  setup({ inTrial: true, expired: false, daysRemaining: 7 })
  expect(await screen.findByText('Teste Gratuito de 7 Dias Ativo')).toBeInTheDocument()
  expect(screen.getByText('7 dias restantes')).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Assinar Premium' })).not.toBeInTheDocument()
  expect(screen.getByLabelText('Link de agendamento')).toHaveValue(`${window.location.origin}/agende/ana`)
})

it('offers to subscribe from 3 days left', async () => {
  setup({ inTrial: true, expired: false, daysRemaining: 3 })
  expect(await screen.findByRole('link', { name: 'Assinar Premium' })).toHaveAttribute('href', '/subscribe')
})

it('says "Último dia" with one day left', async () => {
  setup({ inTrial: true, expired: false, daysRemaining: 1 })
  expect(await screen.findByText('Último dia')).toBeInTheDocument()
})

it('says the trial expired', async () => {
  setup({ inTrial: false, expired: true, daysRemaining: 0 })
  expect(await screen.findByText('Seu teste gratuito de 7 dias expirou')).toBeInTheDocument()
})

it("shows today's times first and every status in Portuguese (issue 39)", async () => {
  const appt = (id: string, time: string, status: string) => ({
    id,
    time,
    status,
    date: '2026-11-27',
    serviceName: 'Consulta nutricional completa com bioimpedância',
    clientName: 'Beatriz Lima',
    clientEmail: 'bia@x.com',
    clientPhone: '11974442812',
    professionalName: 'Ana',
    answer: '',
  })
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    if (c.url === '/api/setup-status')
      return { status: 200, body: { complete: true, items, publicUsername: 'ana', trial: { inTrial: false, expired: false, daysRemaining: 0, endsAt: null } } }
    if (c.url === '/api/dashboard')
      return {
        status: 200,
        body: {
          date: '2026-11-27',
          unanswered: [],
          metrics: { total: 2, confirmed: 1, confirmationRate: 50, revenueCents: 0, uniqueClients: 1 },
          today: [appt('a1', '09:30', 'no_show'), appt('a2', '14:00', 'completed')],
        },
      }
    return undefined
  })
  renderRoutes([{ path: '/dashboard', Component: DashboardPage }], '/dashboard')
  expect(await screen.findByText('Não compareceu')).toBeInTheDocument()
  expect(screen.getByText('Concluído')).toBeInTheDocument()
  expect(screen.queryByText(/no_show|completed/)).not.toBeInTheDocument()
  expect(screen.getByText('E-mails distintos (quem não tem e-mail não conta)')).toBeInTheDocument()
  // The time opens the row's link and is not in the part that truncates.
  const link = document.querySelector('a[href="/appointment/a1"]')!
  expect(link.textContent).toMatch(/^09:30/)
  expect(screen.getByText('09:30')).not.toHaveClass('truncate')
})

it("lists first tomorrow's clients no automatic reminder reaches, marked (issue 41 §5)", async () => {
  const appt = (id: string, time: string, clientName: string) => ({
    id,
    time,
    clientName,
    status: 'confirmed',
    date: '2026-11-28',
    serviceName: 'Limpeza',
    clientEmail: id === 'a1' ? 'bia@x.com' : '',
    clientPhone: '11974442812',
    professionalName: 'Ana',
    answer: '',
  })
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    if (c.url === '/api/setup-status')
      return { status: 200, body: { complete: true, items, publicUsername: 'ana', trial: { inTrial: false, expired: false, daysRemaining: 0, endsAt: null } } }
    if (c.url === '/api/dashboard')
      return {
        status: 200,
        body: {
          date: '2026-11-27',
          unanswered: [appt('a1', '09:00', 'Beatriz Lima'), appt('a2', '15:00', 'Caio Souza')],
          metrics: { total: 2, confirmed: 2, confirmationRate: 100, revenueCents: 0, uniqueClients: 1 },
          today: [],
        },
      }
    if (c.url === '/api/reminders/reach')
      return {
        status: 200,
        body: {
          from: '2026-11-27',
          to: '2026-12-27',
          on: true,
          total: 2,
          email: 1,
          whatsApp: 0,
          push: 0,
          none: 1,
          whatsAppRoute: '',
          unreached: [{ appointmentId: 'a2', date: '2026-11-28', time: '15:00', clientName: 'Caio Souza', clientPhone: '11974442812', serviceName: 'Limpeza' }],
        },
      }
    return undefined
  })
  renderRoutes([{ path: '/dashboard', Component: DashboardPage }], '/dashboard')
  const list = await screen.findByRole('list', { name: 'Lembretes de amanhã' })
  await screen.findByText('sem lembrete automático')
  const rows = [...list.querySelectorAll('li')].map((li) => li.textContent)
  expect(rows[0]).toMatch(/Caio Souza.*sem lembrete automático/)
  expect(rows[1]).toMatch(/Beatriz Lima/)
  expect(rows[1]).not.toMatch(/sem lembrete automático/)
})

it("warns when a professional's own calendar could not be read, or an appointment written there (issue 42 §4)", async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    if (c.url === '/api/setup-status')
      return { status: 200, body: { complete: true, items, publicUsername: 'ana', trial: { inTrial: false, expired: false, daysRemaining: 0, endsAt: null } } }
    if (c.url === '/api/calendars')
      return {
        status: 200,
        body: {
          calendars: [
            { professionalId: 'p1', professionalName: 'Bia', kind: 'ics', host: 'calendar.google.com', showTitles: false, allDay: 'busy', onFailure: 'drop', events: 0,
              lastReadAt: null, lastError: 'endereço não encontrado', lastErrorAt: new Date(new Date().setHours(14, 5, 0, 0)).toISOString(), failingSince: null, kept: false, writeError: null },
            // Read fine, but an appointment could not be written there.
            { professionalId: 'p2', professionalName: 'Caio', kind: 'caldav', host: 'caldav.icloud.com', showTitles: false, allDay: 'busy', onFailure: 'keep', events: 3,
              lastReadAt: new Date().toISOString(), lastError: '', lastErrorAt: null, failingSince: null, kept: false,
              writeError: { at: new Date(new Date().setHours(9, 30, 0, 0)).toISOString(), message: 'usuário ou senha de app recusados' } },
            // All well: not mentioned.
            { professionalId: 'p3', professionalName: 'Duda', kind: 'google', host: 'duda@gmail.com', showTitles: false, allDay: 'busy', onFailure: 'keep', events: 1,
              lastReadAt: new Date().toISOString(), lastError: '', lastErrorAt: null, failingSince: null, kept: false, writeError: null },
          ],
        },
      }
    return undefined
  })
  renderRoutes([{ path: '/dashboard', Component: DashboardPage }], '/dashboard')
  expect(await screen.findByText('Agenda pessoal com problema')).toBeInTheDocument()
  expect(screen.getByText(/^Bia: Não conseguimos ler sua agenda às 14:05: endereço não encontrado\./)).toBeInTheDocument()
  expect(screen.getByText(/^Caio: Não conseguimos gravar na sua agenda às 09:30: usuário ou senha de app recusados\. Seguimos tentando/)).toBeInTheDocument()
  expect(screen.queryByText(/^Duda:/)).toBeNull()
  expect(screen.getByRole('link', { name: 'Ver agendas' })).toHaveAttribute('href', '/profile')
})
