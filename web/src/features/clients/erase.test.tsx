import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { toast } from 'sonner'
import { renderRoutes, session, stubFetch } from '@/test/render'
import ClientHistoryPage from './ClientHistoryPage'

// Toasts live in sonner's module state: one test's must not be read by the next.
afterEach(() => {
  vi.unstubAllGlobals()
  toast.dismiss()
})

const ref = '0b6f1c2e-8a4d-4f7e-9c1a-2d3e4f5a6b7c'
const appointment = {
  id: ref, professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 50, priceCents: 15000, clientName: 'Maria Souza',
  clientEmail: 'maria@x.com', clientPhone: '11911111111', notes: '', date: '2026-11-19', time: '10:00', status: 'completed', createdAt: '2026-11-01T12:00:00Z', seriesId: null, answer: '',
}
const history = {
  client: { identifier: '11911111111', name: 'Maria Souza', email: 'maria@x.com', phone: '11911111111' },
  appointments: [appointment], count: 1, attendedCount: 1, revenueCents: 15000, lastAttended: '2026-11-19',
  scheduledCount: 0, scheduledCents: 0, nextAppointment: '', noShows: 0, truncated: false, deposits: [], payments: [], dueCents: 0,
}

function serve(answer: Record<string, unknown>) {
  return stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history }
    if (c.url === '/api/clients/erase' && c.method === 'POST') return { status: 200, body: answer, delayMs: 30 }
    return undefined
  })
}

const routes = [
  { path: '/clients/:key', Component: ClientHistoryPage },
  { path: '/clients', Component: () => <p>Lista de clientes</p> },
]

async function erase() {
  await userEvent.click(await screen.findByRole('button', { name: 'Excluir dados do cliente' }, { timeout: 10_000 }))
  const dialog = await screen.findByRole('dialog')
  // The dialog says a record, if any, is kept.
  expect(within(dialog).getByText(/Se houver prontuário deste cliente, ele fica guardado, lacrado, pelo prazo que a lei exige/)).toBeInTheDocument()
  await userEvent.click(within(dialog).getByRole('button', { name: 'Excluir dados' }))
  expect(await screen.findByText('Lista de clientes')).toBeInTheDocument()
}

it('tells the owner, after the 2xx, that the client\'s records are kept sealed and from when they may end', async () => {
  const calls = serve({ erased: 1, records: 1, keptUntil: '2031-11-19', lawUntil: '2046-11-19' })
  renderRoutes(routes, `/clients/${ref}`)
  await erase()
  expect(await screen.findByText('Dados do cliente excluídos')).toBeInTheDocument()
  expect(
    screen.getByText('O prontuário fica guardado, lacrado, como a lei exige: pode ser eliminado a partir de 19/11/2031; a Lei 13.787/2018 prevê a guarda até 19/11/2046.'),
  ).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/clients/erase')?.body).toEqual({ identifier: '11911111111', confirm: true })
})

it('says nothing of records when the client had none', async () => {
  serve({ erased: 1, records: 0 })
  renderRoutes(routes, `/clients/${ref}`)
  await erase()
  await waitFor(() => expect(screen.getAllByText('Dados do cliente excluídos').length).toBeGreaterThan(0))
  expect(screen.queryByText(/O prontuário fica guardado/)).not.toBeInTheDocument()
})

