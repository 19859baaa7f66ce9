import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import CancelPage from './CancelPage'

afterEach(() => vi.unstubAllGlobals())

const booking: Schemas['Cancellation'] = {
  ownerName: 'Clínica Rita', professionalName: 'Rita', serviceName: 'Sessão', date: '2026-11-10', time: '10:00', duration: 60, priceCents: 12000,
  status: 'completed', cancellable: false, cancelUntil: '', username: 'rita', professionalId: 'p1', serviceId: 's1',
  ownerWhatsapp: '', ownerContactEmail: '', deposit: null,
}

const version = (over: Record<string, unknown>) => ({
  id: 'v1', entryId: 'e1', version: 1, kind: 'prontuario', template: 'evolucao', sessionDate: '2026-11-10', body: 'Sessão de acolhimento.\nCombinamos metas.',
  authorName: 'Rita Alves', authorCouncil: 'CRP 06/12345', createdAt: '2026-11-10T13:02:00Z', signature: 'assinado por Rita Alves, CRP 06/12345, em 10/11/2026 10:02', ...over,
})

const copy: Schemas['RecordCopy'] = {
  practice: 'Clínica Rita',
  professional: 'Rita Alves',
  council: 'CRP 06/12345',
  client: 'Carla Souza',
  entries: [
    [
      version({ id: 'v2', version: 2, body: 'Sessão de acolhimento. Metas revistas.', reason: 'Metas corrigidas', signature: 'assinado por Rita Alves, CRP 06/12345, em 11/11/2026 09:00' }),
      version({}),
    ],
  ] as Schemas['RecordCopy']['entries'],
}

function open(record: { status: number; body?: unknown }) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/public/bookings/tok') return { status: 200, body: booking }
    if (c.url === '/api/public/bookings/tok/record') return record
    return undefined
  })
  renderRoutes([{ path: '/cancel/:token', Component: CancelPage }], '/cancel/tok')
  return calls
}

it('opens the client\'s copy of the prontuário from the private page: practice, professional and council, each entry signed, printable', async () => {
  const calls = open({ status: 200, body: copy })
  await screen.findByRole('heading', { name: 'Seu agendamento' })
  // Nothing is asked before the client asks for it.
  expect(calls.some((c) => c.url.endsWith('/record'))).toBe(false)
  await userEvent.click(screen.getByRole('button', { name: 'Ver meu prontuário' }))
  expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeInTheDocument()
  expect(screen.getByText('Clínica Rita')).toBeInTheDocument()
  expect(screen.getByText('Rita Alves — CRP 06/12345')).toBeInTheDocument()
  const [entry] = within(screen.getByRole('list', { name: 'Anotações do prontuário' })).getAllByRole('listitem')
  expect(within(entry).getByText('Evolução — atendimento de 10/11/2026')).toBeInTheDocument()
  expect(within(entry).getByText('Sessão de acolhimento. Metas revistas.')).toBeInTheDocument()
  expect(within(entry).getByText('assinado por Rita Alves, CRP 06/12345, em 11/11/2026 09:00')).toBeInTheDocument()
  expect(within(entry).getByText('Correção: Metas corrigidas')).toBeInTheDocument()
  expect(within(entry).getByText(/Combinamos metas\./)).toBeInTheDocument()
  const print = vi.fn()
  vi.stubGlobal('print', print)
  await userEvent.click(screen.getByRole('button', { name: 'Imprimir' }))
  expect(print).toHaveBeenCalledOnce()
  await userEvent.click(screen.getByRole('button', { name: 'Voltar ao agendamento' }))
  expect(await screen.findByRole('heading', { name: 'Seu agendamento' })).toBeInTheDocument()
})

it('says quietly that there is nothing to show when the server answers 404', async () => {
  open({ status: 404, body: { error: { code: 'not_found', message: 'Nenhum prontuário disponível por este link.' } } })
  await userEvent.click(await screen.findByRole('button', { name: 'Ver meu prontuário' }))
  expect(await screen.findByText('Nenhum prontuário disponível por este link.')).toBeInTheDocument()
  expect(screen.queryByRole('list', { name: 'Anotações do prontuário' })).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Imprimir' })).not.toBeInTheDocument()
})

it('asks again on each opening: a copy the professional allowed since shows without a reload', async () => {
  let allowed = false
  stubFetch((c) => {
    if (c.url === '/api/public/bookings/tok') return { status: 200, body: booking }
    if (c.url === '/api/public/bookings/tok/record') return allowed ? { status: 200, body: copy } : { status: 404, body: { error: { code: 'not_found', message: 'x' } } }
    return undefined
  })
  renderRoutes([{ path: '/cancel/:token', Component: CancelPage }], '/cancel/tok')
  await userEvent.click(await screen.findByRole('button', { name: 'Ver meu prontuário' }))
  expect(await screen.findByText('Nenhum prontuário disponível por este link.')).toBeInTheDocument()
  await userEvent.click(screen.getByRole('button', { name: 'Voltar ao agendamento' }))
  allowed = true
  await userEvent.click(await screen.findByRole('button', { name: 'Ver meu prontuário' }))
  expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeInTheDocument()
})
