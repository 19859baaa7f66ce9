import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import ClientsPage from './ClientsPage'

afterEach(() => vi.unstubAllGlobals())

const maria = {
  identifier: '11911111111', ref: '0b6f1c2e-8a4d-4f7e-9c1a-2d3e4f5a6b7c', name: 'Maria da Silva', email: 'maria@x.com', phone: '11911111111',
  attendedCount: 2, revenueCents: 15000, lastAttended: '2026-11-16', scheduledCount: 1, scheduledCents: 7000, nextAppointment: '2026-11-30', noShows: 1,
}
const joao = { ...maria, identifier: 'joao@x.com', ref: '1c7a2d3e-9b5e-4a8f-8d2b-3e4f5a6b7c8d', name: 'João', email: 'joao@x.com', phone: '', attendedCount: 0, revenueCents: 0, lastAttended: '', scheduledCount: 0, scheduledCents: 0, nextAppointment: '', noShows: 0 }

function setup(path: string) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients?')) {
      const q = new URLSearchParams(c.url.split('?')[1]).get('q') ?? ''
      const clients = q ? [maria].filter((m) => m.name.toLowerCase().includes(q.toLowerCase())) : [maria, joao]
      return { status: 200, body: { total: clients.length, clients } }
    }
    return undefined
  })
  const router = renderRoutes([{ path: '/clients', Component: ClientsPage }], path)
  return { calls, router }
}

it('searches on the server after a pause, with the search in the address', async () => {
  const { calls, router } = setup('/clients')
  expect(await screen.findByText('2 clientes')).toBeInTheDocument()
  fireEvent.change(screen.getByLabelText('Buscar cliente'), { target: { value: 'mari' } })
  expect(await screen.findByText('1 cliente encontrado')).toBeInTheDocument()
  expect(router.state.location.search).toBe('?q=mari')
  expect(calls.filter((c) => c.url.startsWith('/api/clients?')).map((c) => new URLSearchParams(c.url.split('?')[1]).get('q'))).toEqual([null, 'mari'])
  expect(screen.queryByText('João')).not.toBeInTheDocument()
})

it('counts attended apart from scheduled, and the name opens the client', async () => {
  setup('/clients?q=maria')
  const link = await screen.findByRole('link', { name: 'Maria da Silva' })
  // The address is the opaque reference, never the phone (issue 39).
  expect(link).toHaveAttribute('href', '/clients/0b6f1c2e-8a4d-4f7e-9c1a-2d3e4f5a6b7c')
  expect(screen.getByLabelText('Buscar cliente')).toHaveValue('maria')
  const row = screen.getByRole('row', { name: /Maria da Silva/ })
  expect(row).toHaveTextContent('16/11/2026')
  expect(row).toHaveTextContent('1 agendado')
  expect(row).toHaveTextContent('30/11/2026')
  await waitFor(() => expect(screen.getByText('1 cliente encontrado')).toBeInTheDocument())
})

it('says when a search finds nobody', async () => {
  setup('/clients?q=zzz')
  expect(await screen.findByText('Nenhum cliente encontrado para “zzz”.')).toBeInTheDocument()
})
