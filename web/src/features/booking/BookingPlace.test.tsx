import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import BookingPage from './BookingPage'

afterEach(() => vi.unstubAllGlobals())

const address = 'Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000'
const maps = 'https://www.google.com/maps/search/?api=1&query=Rua+das+Flores'
const profile: Schemas['PublicProfile'] = {
  username: 'ana', name: 'Ana Souza', area: 'Nutrição', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
  instagram: '', linkedin: '', whatsapp: '', address, mapsUrl: maps, bookingOpen: true, hidePrices: false, firstBookableDate: '2026-11-23', lastBookableDate: '2027-02-21',
  services: [{ id: 's1', name: 'Sessão online', description: null, duration: 45, priceCents: 15000, professionalIds: [], online: true, deposit: null }],
  professionals: [{ id: 'p1', name: 'Ana', specialization: 'Nutricionista', photoUrl: '', councilLabel: '', headline: 'Nutricionista' }],
}
const booking = (place: Schemas['Place']): Schemas['Booking'] => ({
  id: 'a1', date: '2026-11-30', time: '10:00', professionalName: 'Ana', serviceName: 'Sessão online', duration: 45, priceCents: 15000,
  startsAt: '2026-11-30T13:00:00Z', googleCalendarUrl: 'https://calendar.google.com/calendar/render?action=TEMPLATE', token: 'tok', place,
})

async function book(place: Schemas['Place']) {
  stubFetch((c) => {
    if (c.url === '/api/public/profiles/ana') return { status: 200, body: profile }
    if (c.url.startsWith('/api/public/profiles/ana/days')) return { status: 200, body: { days: ['2026-11-30'], full: [] } }
    if (c.url.startsWith('/api/public/profiles/ana/times')) return { status: 200, body: { times: ['10:00'] } }
    if (c.url === '/api/public/profiles/ana/bookings' && c.method === 'POST') return { status: 201, body: booking(place) }
    return undefined
  })
  renderRoutes([{ path: '/agende/:username/form', Component: BookingPage }], '/agende/ana/form?service=s1&professional=p1&date=2026-11-30')
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Nome completo *'), 'Maria Silva')
  await user.type(screen.getByLabelText('Telefone *'), '(11) 98888-7777')
  await user.selectOptions(await screen.findByLabelText('Horário'), '10:00')
  await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }))
  return within(await screen.findByRole('region', { name: 'Agendamento confirmado!' }))
}

// The form is typed into and the card loads lazily after the booking (the page budget): on a busy machine that passes 5 s.
describe('where, on the confirmation card', { timeout: 20_000 }, () => {
  it("an online service shows its video-call link instead of the address", async () => {
    const card = await book({ online: true, link: 'https://meet.example.com/sala', address: '', mapsUrl: '' })
    expect(card.getByRole('link', { name: 'https://meet.example.com/sala' })).toHaveAttribute('href', 'https://meet.example.com/sala')
    expect(card.queryByText(/Rua das Flores/)).toBeNull()
  })

  it('an appointment in person shows the address with its map', async () => {
    const card = await book({ online: false, link: '', address, mapsUrl: maps })
    expect(card.getByText(/Rua das Flores, 123/)).toBeInTheDocument()
    expect(card.getByRole('link', { name: 'Ver no mapa' })).toHaveAttribute('href', maps)
  })
})
