import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import AnswerPage from './AnswerPage'

afterEach(() => vi.unstubAllGlobals())

// Issue 38, point 4: mail and WhatsApp link scanners open (and run) every
// link of a message. Opening a one-tap link only shows the page; its button
// answers.
const tomorrow = new Date(Date.now() + 864e5).toISOString().slice(0, 10)
const base: Schemas['AnswerResult'] = {
  action: 'confirm', answer: '', status: 'confirmed', already: false, moved: false, pastCutoff: false, ownerName: 'Clínica Rita', serviceName: 'Sessão',
  professionalName: 'Rita', date: tomorrow, time: '10:00', cancelUntil: null, ownerWhatsapp: '', ownerContactEmail: '',
}

function open(preview: Schemas['AnswerResult'], applied?: Schemas['AnswerResult']) {
  const calls = stubFetch((c) => {
    if (c.url !== '/api/public/answers/tok') return undefined
    return c.method === 'GET' ? { status: 200, body: preview } : { status: 200, body: applied ?? preview }
  })
  renderRoutes([{ path: '/resposta/:token', Component: AnswerPage }], '/resposta/tok')
  return calls
}

const posts = (calls: { url: string; method: string }[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/public/answers/tok').length

it('opening "Confirmar presença" changes nothing; its button confirms', async () => {
  const calls = open(base, { ...base, answer: 'confirmed' })
  const button = await screen.findByRole('button', { name: 'Confirmar presença' })
  await new Promise((r) => setTimeout(r, 50))
  expect(posts(calls)).toBe(0)
  await userEvent.click(button)
  expect(await screen.findByRole('heading', { name: 'Presença confirmada' })).toBeInTheDocument()
  expect(screen.getByRole('status')).toHaveTextContent('Obrigado! Sua presença está confirmada')
  expect(posts(calls)).toBe(1)
})

it('opening "Preciso remarcar" after a confirmation says what was done and changes nothing', async () => {
  const calls = open({ ...base, action: 'reschedule', answer: 'confirmed' })
  expect(await screen.findByRole('button', { name: 'Preciso remarcar' })).toBeInTheDocument()
  expect(screen.getByRole('status')).toHaveTextContent('Você já confirmou presença')
  await new Promise((r) => setTimeout(r, 50))
  expect(posts(calls)).toBe(0)
})

it('a link already used says so, with no button to answer again', async () => {
  const calls = open({ ...base, answer: 'confirmed', already: true })
  expect(await screen.findByRole('heading', { name: 'Presença confirmada' })).toBeInTheDocument()
  expect(screen.getByRole('status')).toHaveTextContent('Você já tinha confirmado')
  expect(screen.queryByRole('button')).not.toBeInTheDocument()
  await waitFor(() => expect(posts(calls)).toBe(0))
})

it('a link of a message about an earlier time says the appointment moved, with no button to answer', async () => {
  const calls = open({ ...base, moved: true, time: '11:00' })
  expect(await screen.findByRole('heading', { name: 'Este agendamento mudou de horário' })).toBeInTheDocument()
  expect(screen.getByRole('status')).toHaveTextContent('às 11:00')
  expect(screen.queryByRole('button')).not.toBeInTheDocument()
  await waitFor(() => expect(posts(calls)).toBe(0))
})
