import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { BlockForm } from './BlockForm'

afterEach(() => vi.unstubAllGlobals())

const fernanda = {
  id: 'a1', date: '2026-11-30', time: '15:00', duration: 60, clientName: 'Fernanda Vieira', clientPhone: '11988887777', clientEmail: '',
  serviceName: 'Sessão', serviceId: 's1', professionalId: 'p1', professionalName: 'Ana',
}

function setup(affected: unknown[], outcomes?: unknown[]) {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals') return { status: 200, body: [{ id: 'p1', name: 'Ana', specialization: '', email: null, photoUrl: '', active: true, ownHours: false }] }
    if (c.url === '/api/blocks/preview') return { status: 200, body: { appointments: affected } }
    if (c.url === '/api/message-templates') return { status: 200, body: { confirmation: 'Oi {nome}', reminder: 'Lembrete {nome}', reschedule: 'Remarcado {nome}: {data} às {hora}' } }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: ['10:00', '11:00'] } }
    if (c.url === '/api/blocks' && c.method === 'POST') return { status: 201, body: { id: 'b1', professionalId: 'p1', professionalName: 'Ana', date: '2026-11-30', start: '13:00', end: '18:00', reason: '', kept: [], outcomes } }
    return undefined
  })
  const done = vi.fn()
  renderRoutes([{ path: '/', Component: () => <BlockForm date="2026-11-30" professionalId="p1" onDone={done} onCancel={() => {}} /> }], '/')
  return { calls, done }
}

async function fillAndBlock() {
  fireEvent.change(await screen.findByLabelText('Início *'), { target: { value: '13:00' } })
  fireEvent.change(screen.getByLabelText('Fim *'), { target: { value: '18:00' } })
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
}

it('lists the client inside the block and saves only once the owner decided', async () => {
  const { calls, done } = setup([fernanda])
  await fillAndBlock()
  const item = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  expect(item).toHaveTextContent('15:00')
  const save = screen.getByRole('button', { name: 'Bloquear' })
  expect(save).toBeDisabled()
  expect(calls.some((c) => c.url === '/api/blocks' && c.method === 'POST')).toBe(false)
  fireEvent.click(screen.getByRole('button', { name: 'Manter' }))
  expect(save).toBeEnabled()
  fireEvent.click(save)
  await waitFor(() => expect(done).toHaveBeenCalled())
  const posted = calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!
  expect(posted.body).toMatchObject({ date: '2026-11-30', start: '13:00', end: '18:00', plan: [{ id: 'a1', action: 'keep' }] })
})

it('saves at once when nobody is inside', async () => {
  const { calls, done } = setup([])
  await fillAndBlock()
  await waitFor(() => expect(done).toHaveBeenCalled())
  expect(calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!.body).toMatchObject({ plan: [] })
})

// "Cancelar e avisar" is a plan: nothing is cancelled until "Bloquear",
// "Voltar" changes nothing, and after the save the owner is told how each
// client was told — never "avisado" when no message left.
it('cancels nobody before the block is saved, then says which channel told each client', async () => {
  const rosa = { ...fernanda, id: 'a2', time: '16:00', clientName: 'Rosa Alves', clientPhone: '11966665555', clientEmail: 'rosa@example.com' }
  const { calls, done } = setup([fernanda, rosa], [
    { id: 'a1', action: 'cancelled', channel: 'none' },
    { id: 'a2', action: 'cancelled', channel: 'email' },
  ])
  await fillAndBlock()
  for (const name of ['Fernanda Vieira', 'Rosa Alves']) {
    const item = await screen.findByRole('listitem', { name })
    fireEvent.click(within(item).getByRole('button', { name: 'Cancelar e avisar' }))
  }
  expect(calls.some((c) => c.url.startsWith('/api/appointments'))).toBe(false)
  // Back to the form and forward again: still nothing sent.
  fireEvent.click(screen.getByRole('button', { name: 'Voltar' }))
  expect(calls.some((c) => c.url.startsWith('/api/appointments') || (c.url === '/api/blocks' && c.method === 'POST'))).toBe(false)
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
  for (const name of ['Fernanda Vieira', 'Rosa Alves']) {
    const item = await screen.findByRole('listitem', { name })
    fireEvent.click(within(item).getByRole('button', { name: 'Cancelar e avisar' }))
  }
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
  await screen.findByRole('button', { name: 'Concluir' })
  const fer = screen.getByRole('listitem', { name: 'Fernanda Vieira' })
  expect(fer).toHaveTextContent('Não conseguimos avisar automaticamente')
  expect(fer).not.toHaveTextContent('avisado')
  const text = new URL(within(fer).getByRole('link', { name: /Enviar o cancelamento pelo WhatsApp/ }).getAttribute('href')!).searchParams.get('text')
  expect(text).toContain('Precisamos cancelar o seu horário de Sessão com Ana')
  expect(text).not.toMatch(/remarcad/i)
  expect(screen.getByRole('listitem', { name: 'Rosa Alves' })).toHaveTextContent('Avisamos por e-mail')
  const posted = calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!
  expect(posted.body).toMatchObject({ plan: [{ id: 'a1', action: 'cancel', notify: true }, { id: 'a2', action: 'cancel', notify: true }] })
  expect(calls.some((c) => c.url.startsWith('/api/appointments'))).toBe(false)
  expect(done).not.toHaveBeenCalled()
  fireEvent.click(screen.getByRole('button', { name: 'Concluir' }))
  expect(done).toHaveBeenCalled()
})

// "Remarcar" in the plan moves nothing until "Bloquear"; saved, the owner
// reads where it went and how the client was told — without a channel, the
// rescheduling message (not the cancellation) ready on WhatsApp.
it('moves a planned one only with the save and offers the rescheduling message when nobody could be told', async () => {
  const { calls } = setup([fernanda], [{ id: 'a1', action: 'moved', channel: 'none', date: '2026-12-01', time: '11:00' }])
  await fillAndBlock()
  const item = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  fireEvent.click(within(item).getByRole('button', { name: 'Remarcar' }))
  fireEvent.change(within(item).getByLabelText('Nova data'), { target: { value: '2026-12-01' } })
  fireEvent.click(await within(item).findByRole('button', { name: '11:00' }))
  fireEvent.click(within(item).getByRole('button', { name: 'Usar este horário' }))
  expect(calls.some((c) => c.url.startsWith('/api/appointments'))).toBe(false)
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
  await screen.findByRole('button', { name: 'Concluir' })
  const posted = calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!
  expect(posted.body).toMatchObject({ plan: [{ id: 'a1', action: 'move', date: '2026-12-01', time: '11:00', notify: true }] })
  const fer = screen.getByRole('listitem', { name: 'Fernanda Vieira' })
  expect(fer).toHaveTextContent('para terça-feira, 1 de dezembro de 2026 às 11:00')
  expect(fer).toHaveTextContent('Não conseguimos avisar automaticamente')
  const link = await within(fer).findByRole('link', { name: /Avisar remarcação pelo WhatsApp/ })
  const text = new URL(link.getAttribute('href')!).searchParams.get('text')
  expect(text).toContain('Remarcado Fernanda')
  expect(text).toContain('11:00')
  expect(text).not.toMatch(/cancelar/i)
  expect(calls.some((c) => c.url.startsWith('/api/appointments'))).toBe(false)
})
