import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { CalendarFeedsCard } from './CalendarFeedsCard'

afterEach(() => vi.unstubAllGlobals())

const feed = { id: 'f1', professionalId: null, professionalName: '', createdAt: '2026-11-20T12:00:00Z', includePhone: false }
const bia = { id: 'p1', name: 'Bia', specialization: 'Nutricionista', photoUrl: '', active: true, ownHours: false, createdAt: '2026-01-01T00:00:00Z' }

describe('CalendarFeedsCard', () => {
  it('says what a feed carries and ticks the phone for one feed, keeping its address', async () => {
    let current = feed
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [bia] }
      if (c.url === '/api/calendar-feeds' && c.method === 'GET') return { status: 200, body: { feeds: [current] } }
      if (c.url === '/api/calendar-feeds/f1' && c.method === 'PATCH') {
        current = { ...current, ...(c.body as { includePhone: boolean }) }
        return { status: 200, body: current }
      }
      if (c.url === '/api/calendar-feeds' && c.method === 'POST') return { status: 201, body: { ...current, id: 'f2', url: 'https://agendei.test/calendar/x.ics' } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: CalendarFeedsCard }], '/profile')
    expect(await screen.findByText('Inclui nome do cliente, serviço e profissional. Observações nunca são enviadas.')).toBeInTheDocument()

    const box = await screen.findByRole('checkbox', { name: 'Incluir telefone do cliente — Toda a clínica' })
    expect(box).not.toBeChecked()
    // Only a feed that exists has the choice: Bia has no link yet.
    expect(screen.queryByRole('checkbox', { name: 'Incluir telefone do cliente — Bia' })).toBeNull()

    const user = userEvent.setup()
    await user.click(box)
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Incluir telefone do cliente — Toda a clínica' })).toBeChecked())
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ includePhone: true })

    // A new link keeps the feed's choice.
    await user.click(screen.getByRole('button', { name: 'Gerar novo link — Toda a clínica' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.url === '/api/calendar-feeds')?.body).toEqual({ professionalId: null, includePhone: true }))
  })
})
