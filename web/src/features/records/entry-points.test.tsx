import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

const ref = '6f1c2a3b-0000-4000-8000-000000000001'
const history = {
  client: { identifier: 'x', name: 'Carla Souza', email: '', phone: '11988887777' },
  appointments: [
    { id: ref, date: '2026-11-20', time: '09:00', clientName: 'Carla Souza', clientPhone: '11988887777', clientEmail: '', serviceName: 'Sessão', professionalName: 'Paula Lima', priceCents: 20000, status: 'completed' },
  ],
  deposits: [],
  count: 1,
  attendedCount: 1,
  revenueCents: 20000,
  lastAttended: '2026-11-20',
  scheduledCount: 0,
  scheduledCents: 0,
  nextAppointment: '',
  noShows: 0,
  truncated: false,
  // Required since the monthly billing (issue 43 §4): the owner's client page lists them.
  payments: [],
  dueCents: 0,
}

for (const role of ['owner', 'professional']) {
  it(`the client page opens the client's record (${role})`, async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: { ...session, user: { ...session.user, role } } }
      if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history }
      if (c.url.startsWith('/api/records?')) return { status: 200, body: { record: null } }
      return undefined
    })
    const router = renderRoutes(routes, `/clients/${ref}`)
    const link = await screen.findByRole('link', { name: 'Prontuário' }, { timeout: 10_000 })
    expect(link).toHaveAttribute('href', `/clients/${ref}/prontuario`)
    // The client page itself never reads the record (every read is logged).
    expect(calls.some((c) => c.url.startsWith('/api/records'))).toBe(false)
    await userEvent.click(link)
    expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' }, { timeout: 10_000 })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(`/clients/${ref}/prontuario`)
    expect(calls.some((c) => c.url === `/api/records?client=${ref}`)).toBe(true)
  })
}
