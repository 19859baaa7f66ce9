import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { WhatsAppMessages } from './whatsapp-messages'

afterEach(() => vi.unstubAllGlobals())

const appointment = { id: 'a1', clientName: 'Rosa Alves', clientPhone: '(11) 96666-5555', date: '2026-11-30', time: '10:00', serviceName: 'Sessão', professionalName: 'Ana' }
const templates = { confirmation: 'Oi {nome}!', reminder: 'Lembrete, {nome}: {data} às {hora}. Para remarcar ou cancelar: {link_cliente}', reschedule: 'Remarcado.' }

it('asks the server for a fresh private link when a template has {link_cliente}, then opens WhatsApp with it', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/message-templates') return { status: 200, body: templates }
    if (c.url === '/api/appointments/a1/client-link' && c.method === 'POST') return { status: 201, body: { url: 'https://agendei.app/cancel/novo' } }
    return undefined
  })
  const win = { opener: {}, location: { href: '' }, close: vi.fn() }
  vi.stubGlobal('open', vi.fn(() => win))
  renderRoutes([{ path: '/', Component: () => <WhatsAppMessages appointment={appointment} /> }], '/')

  // A template without it stays a plain link, composed in the page.
  expect(await screen.findByRole('link', { name: 'Enviar confirmação pelo WhatsApp' })).toHaveAttribute('href', 'https://wa.me/5511966665555?text=Oi%20Rosa!')
  await userEvent.setup().click(screen.getByRole('button', { name: 'Enviar lembrete pelo WhatsApp' }))
  await waitFor(() => expect(win.location.href).not.toBe(''))
  expect(calls.filter((c) => c.url === '/api/appointments/a1/client-link')).toHaveLength(1)
  const sent = new URL(win.location.href)
  expect(sent.pathname).toBe('/5511966665555')
  expect(sent.searchParams.get('text')).toBe('Lembrete, Rosa: segunda-feira, 30 de novembro de 2026 às 10:00. Para remarcar ou cancelar: https://agendei.app/cancel/novo')
  expect(win.opener).toBeNull()
})

it('closes the window it opened and says so when no link can be issued', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/message-templates') return { status: 200, body: templates }
    if (c.url === '/api/appointments/a1/client-link') return { status: 409, body: { error: { code: 'appointment_ended', message: 'Este agendamento já terminou: um link novo não serviria mais.' } } }
    return undefined
  })
  const win = { opener: {}, location: { href: '' }, close: vi.fn() }
  vi.stubGlobal('open', vi.fn(() => win))
  renderRoutes([{ path: '/', Component: () => <WhatsAppMessages appointment={appointment} kinds={['reminder']} /> }], '/')
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Enviar lembrete pelo WhatsApp' }))
  expect(await screen.findByText('Este agendamento já terminou: um link novo não serviria mais.')).toBeInTheDocument()
  expect(win.close).toHaveBeenCalled()
  expect(win.location.href).toBe('')
})

it('composes no message before the profile and the services arrive: the room of an online session is in it', async () => {
  const room = 'https://meet.example.com/sala-da-bia'
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/message-templates') return { status: 200, body: { ...templates, reminder: 'Oi {nome}! Onde: {endereco} | Sala: {link_sessao}' } }
    if (c.url === '/api/services') return { status: 200, body: [{ id: 's1', name: 'Sessão online', online: true, onlineLink: '' }] }
    if (c.url === '/api/profile') return { status: 200, body: { publicUsername: 'bia', addressLine: 'Rua das Flores, 123', roomLink: room }, delayMs: 300 }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <WhatsAppMessages appointment={{ ...appointment, serviceId: 's1' }} kinds={['reminder']} /> }], '/')
  const link = await screen.findByRole('link', { name: 'Enviar lembrete pelo WhatsApp' })
  expect(new URL(link.getAttribute('href') ?? '').searchParams.get('text')).toBe(`Oi Rosa! Onde: ${room} | Sala: ${room}`)
})
