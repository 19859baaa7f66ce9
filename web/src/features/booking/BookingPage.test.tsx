import { screen } from '@testing-library/react'
import { useLocation } from 'react-router'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import BookingPage from './BookingPage'

afterEach(() => vi.unstubAllGlobals())

const profile: Schemas['PublicProfile'] = {
  username: 'ana', name: 'Ana Souza', area: 'Psicologia', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
  instagram: '', linkedin: '', whatsapp: '', address: '', mapsUrl: '', bookingOpen: true, hidePrices: false, firstBookableDate: '2026-11-23', lastBookableDate: '2027-02-21',
  services: [{ id: 's1', name: 'Sessão', description: null, duration: 45, priceCents: 15000, professionalIds: [], online: false, deposit: null }],
  professionals: [{ id: 'p1', name: 'Ana', specialization: 'Psicóloga', photoUrl: '', councilLabel: '', headline: 'Psicóloga' }],
}

const booked: Schemas['Booking'] = {
  id: 'a1', date: '2026-11-30', time: '10:00', professionalName: 'Ana', serviceName: 'Sessão', duration: 45, priceCents: 15000,
  startsAt: '2026-11-30T13:00:00Z', googleCalendarUrl: 'https://calendar.google.com/calendar/render?action=TEMPLATE', token: 'tok-privado_1',
  place: { online: false, link: '', address: '', mapsUrl: '' },
}

// The form is typed into and the card loads lazily after the booking (the page budget): on a busy machine that passes 5 s.
describe('the confirmation card', { timeout: 20_000 }, () => {
  it("downloads the server's invite by the booking's private token, not a file made in the page", async () => {
    stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: profile }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: ['2026-11-30'], full: [] } }
      if (c.url.startsWith('/api/public/profiles/ana/times')) return { status: 200, body: { times: ['10:00'] } }
      if (c.url === '/api/public/profiles/ana/bookings' && c.method === 'POST') return { status: 201, body: booked }
      return undefined
    })
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1&date=2026-11-30')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Nome completo *'), 'Maria Silva')
    await user.type(screen.getByLabelText('Telefone *'), '(11) 98888-7777')
    await user.selectOptions(await screen.findByLabelText('Horário'), '10:00')
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }))

    const invite = await screen.findByRole('link', { name: 'Baixar convite (.ics)' })
    expect(invite).toHaveAttribute('href', '/api/public/bookings/tok-privado_1/invite.ics')
    expect(invite).toHaveAttribute('download', 'agendamento.ics')
    expect(screen.getByRole('link', { name: 'Adicionar ao Google Agenda' })).toHaveAttribute('href', booked.googleCalendarUrl)
  })
})

// Issue 43 §3: the form names the professional with their council registration in the choice, the summary and the confirmation,
// and with prices hidden says "Valor informado no atendimento" wherever the price was.
describe('the councils\' rules on the form', { timeout: 20_000 }, () => {
  it('names the registration and shows no price when the owner hides prices', async () => {
    const hidden: Schemas['PublicProfile'] = {
      ...profile,
      hidePrices: true,
      services: profile.services.map((s) => ({ ...s, priceCents: undefined })),
      professionals: [{ id: 'p1', name: 'Ana Souza', specialization: 'Psicóloga', photoUrl: '', councilLabel: 'CRP 06/12345', headline: 'Psicóloga — CRP 06/12345' }],
    }
    stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: hidden }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: ['2026-11-30'], full: [] } }
      if (c.url.startsWith('/api/public/profiles/ana/times')) return { status: 200, body: { times: ['10:00'] } }
      if (c.url === '/api/public/profiles/ana/bookings' && c.method === 'POST') return { status: 201, body: { ...booked, priceCents: undefined, professionalName: 'Ana Souza', professionalId: 'p1' } }
      return undefined
    })
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1&date=2026-11-30')
    const user = userEvent.setup()
    expect(await screen.findByRole('option', { name: 'Ana Souza · Psicóloga — CRP 06/12345' })).toBeInTheDocument()
    expect(screen.getByRole('radiogroup', { name: 'Serviço' })).toHaveTextContent('Valor informado no atendimento')
    await user.type(await screen.findByLabelText('Nome completo *'), 'Maria Silva')
    await user.type(screen.getByLabelText('Telefone *'), '(11) 98888-7777')
    await user.selectOptions(await screen.findByLabelText('Horário'), '10:00')
    const summary = screen.getByRole('region', { name: 'Resumo' })
    expect(summary).toHaveTextContent('Ana SouzaPsicóloga — CRP 06/12345')
    expect(summary).toHaveTextContent('ValorValor informado no atendimento')
    expect(document.body).not.toHaveTextContent('R$')
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }))

    const card = await screen.findByRole('region', { name: 'Agendamento confirmado!' })
    expect(card).toHaveTextContent('Ana SouzaPsicóloga — CRP 06/12345')
    expect(card).toHaveTextContent('ValorValor informado no atendimento')
    expect(document.body).not.toHaveTextContent('R$')
  })
})

describe('the privacy notice', () => {
  const stub = (area: string) =>
    stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: { ...profile, area } }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: [], full: [] } }
      return undefined
    })

  it('says what is collected and why, links the privacy page, and for health areas that notes are optional and never shared', async () => {
    stub('Psicologia')
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1')
    expect(await screen.findByText(/Ana Souza recebe seu nome, telefone e e-mail para confirmar/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Política de Privacidade' })).toHaveAttribute('href', '/policy')
    expect(screen.getByLabelText('Observações')).toHaveAccessibleDescription(/Opcional.*nunca são compartilhadas/)
  })

  it('asks nothing of other areas about their notes', async () => {
    stub('Salão de beleza')
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1')
    expect(await screen.findByRole('link', { name: 'Política de Privacidade' })).toBeInTheDocument()
    expect(screen.getByLabelText('Observações')).not.toHaveAccessibleDescription(/nunca são compartilhadas/)
  })
})

// Issue 39, point 12: a full day is not a closed one — it reads "lotado",
// can be picked, and leads to the waitlist for that date with what the
// client typed (carried in the history state, never the address).
describe('a full day', { timeout: 20_000 }, () => {
  it('reads "lotado", offers the waitlist for its date and brings the typed name and phone along', async () => {
    stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: profile }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: ['2026-11-30'], full: ['2026-11-24'] } }
      if (c.url.startsWith('/api/public/profiles/ana/times')) return { status: 200, body: { times: [] } }
      return undefined
    })
    let state: unknown = null
    let search = ''
    function Waitlist() {
      const l = useLocation()
      state = l.state
      search = l.search
      return <p>lista</p>
    }
    renderRoutes(
      [
        { path: '/agende/:username/form', Component: BookingPage },
        { path: '/agende/:username/lista-de-espera', Component: Waitlist },
      ],
      '/agende/ana/form?service=s1&professional=p1',
    )
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Nome completo *'), 'Helena Prado')
    await user.type(screen.getByLabelText('Telefone *'), '(11) 97444-2812')
    // A closed day cannot be picked; the full one can, and says so.
    expect(await screen.findByRole('button', { name: 'Dia 29' })).toBeDisabled()
    const full = await screen.findByRole('button', { name: 'Dia 24 lotado' })
    expect(full).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Dia 30' })).toBeEnabled()
    await user.click(full)
    expect(await screen.findByText('Dia lotado')).toBeInTheDocument()
    const links = screen.getAllByRole('link', { name: 'Entrar na lista de espera' })
    await user.click(links[0])
    await screen.findByText('lista')
    expect(new URLSearchParams(search).get('date')).toBe('2026-11-24')
    expect(state).toEqual({ name: 'Helena Prado', email: '', phone: '(11) 97444-2812' })
    expect(search).not.toContain('Helena')
  })
})

// Issue 43 §4: a practice issuing the Receita Saúde's receipts asks the
// payer's CPF — optional, checked, with the LGPD reason beside it.
describe("the payer's CPF", { timeout: 20_000 }, () => {
  it('is asked with its reason only when the practice issues receipts, checked, and sent as typed', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: { ...profile, askPayerCpf: true } }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: ['2026-11-30'], full: [] } }
      if (c.url.startsWith('/api/public/profiles/ana/times')) return { status: 200, body: { times: ['10:00'] } }
      if (c.url === '/api/public/profiles/ana/bookings' && c.method === 'POST') return { status: 201, body: booked }
      return undefined
    })
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1&date=2026-11-30')
    const user = userEvent.setup()
    const cpf = await screen.findByLabelText('CPF de quem paga')
    expect(cpf).toHaveAccessibleDescription('Pedimos seu CPF porque a Receita Federal exige o CPF de quem paga em cada recibo de saúde (IN RFB 2.240/2024).')
    await user.type(screen.getByLabelText('Nome completo *'), 'Maria Silva')
    await user.type(screen.getByLabelText('Telefone *'), '(11) 98888-7777')
    await user.type(cpf, '111.444.777-34')
    await user.selectOptions(await screen.findByLabelText('Horário'), '10:00')
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }))
    expect(await screen.findByText('CPF inválido: confira os 11 dígitos.')).toBeInTheDocument()
    await user.clear(cpf)
    await user.type(cpf, '111.444.777-35')
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }))
    await screen.findByRole('link', { name: 'Baixar convite (.ics)' })
    expect(calls.filter((c) => c.url === '/api/public/profiles/ana/bookings').map((c) => c.body)).toEqual([expect.objectContaining({ clientName: 'Maria Silva', clientCpf: '111.444.777-35' })])
  })

  it('is not asked otherwise', async () => {
    stubFetch((c) => {
      if (c.url === '/api/public/profiles/ana') return { status: 200, body: profile }
      if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: [], full: [] } }
      return undefined
    })
    renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1')
    expect(await screen.findByLabelText('Nome completo *')).toBeInTheDocument()
    expect(screen.queryByLabelText('CPF de quem paga')).not.toBeInTheDocument()
  })
})
