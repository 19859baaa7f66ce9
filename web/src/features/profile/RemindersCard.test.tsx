import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { RemindersCard, leadLabel } from './RemindersCard'

afterEach(() => vi.unstubAllGlobals())

it('names leads in pt-BR', () => {
  expect([30, 60, 120, 1440, 2880].map(leadLabel)).toEqual(['30 minutos antes', '1 hora antes', '2 horas antes', '1 dia antes', '2 dias antes'])
})

it('turns the server default into two reminders, refuses two equal ones, and saves the leads in minutes', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/profile/reminders' && c.method === 'GET') return { status: 200, body: { leads: [1440], custom: false, email: 'Olá, {nome}!' } }
    if (c.url === '/api/profile/reminders' && c.method === 'PUT') return { status: 200, body: { ...(c.body as object), custom: true } }
    return undefined
  })
  renderRoutes([{ path: '/profile', Component: RemindersCard }], '/profile')
  const user = userEvent.setup()
  const count = await screen.findByLabelText('Quantos lembretes por agendamento')
  expect(count).toHaveValue('1')
  expect(screen.getByLabelText('Primeiro lembrete')).toHaveValue('1440')
  expect(screen.queryByLabelText('Segundo lembrete')).toBeNull()

  await user.selectOptions(count, '2')
  await user.selectOptions(screen.getByLabelText('Segundo lembrete'), '1440')
  await user.click(screen.getByRole('button', { name: 'Salvar lembretes' }))
  expect(await screen.findByText('Os dois lembretes precisam de antecedências diferentes.')).toBeInTheDocument()
  expect(calls.some((c) => c.method === 'PUT')).toBe(false)

  await user.selectOptions(screen.getByLabelText('Segundo lembrete'), '120')
  await user.click(screen.getByRole('button', { name: 'Salvar lembretes' }))
  await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ leads: [1440, 120], email: 'Olá, {nome}!' }))
})

it('says who the next reminders reach by channel and names the clients none reaches (issue 41 §5)', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/profile/reminders') return { status: 200, body: { leads: [1440], custom: true, email: 'Olá' } }
    if (c.url === '/api/reminders/reach')
      return {
        status: 200,
        body: {
          from: '2026-11-27',
          to: '2026-12-27',
          on: true,
          total: 12,
          email: 7,
          whatsApp: 4,
          push: 3,
          none: 1,
          whatsAppRoute: 'own',
          unreached: [{ appointmentId: 'x1', date: '2026-12-02', time: '10:00', clientName: 'Caio Souza', clientPhone: '', serviceName: 'Limpeza' }],
        },
      }
    return undefined
  })
  renderRoutes([{ path: '/profile', Component: RemindersCard }], '/profile')
  const byChannel = await screen.findByRole('list', { name: 'Lembretes por canal' })
  expect(byChannel.textContent).toContain('WhatsApp (seu número): 4')
  expect(byChannel.textContent).toContain('E-mail: 7')
  expect(byChannel.textContent).toContain('nenhum: 1')
  expect(screen.getByText('Próximos 30 dias: 12 agendamentos, por onde cada lembrete vai.')).toBeInTheDocument()
  const unreached = screen.getByRole('list', { name: 'Clientes sem lembrete automático' })
  expect(unreached.textContent).toContain('02/12/2026 10:00')
  expect(screen.getByRole('link', { name: 'Caio Souza' })).toHaveAttribute('href', '/appointment/x1')
})
