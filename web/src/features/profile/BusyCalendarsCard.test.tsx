import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { BusyCalendarsCard } from './BusyCalendarsCard'

afterEach(() => vi.unstubAllGlobals())

const pro = (id: string, name: string) => ({ id, name, specialization: 'Psicóloga', photoUrl: '', active: true, ownHours: false, createdAt: '2026-01-01T00:00:00Z' })
const failing = {
  professionalId: 'p2', professionalName: 'Bia', kind: 'ics', host: 'calendar.google.com', showTitles: false, allDay: 'busy', onFailure: 'keep', events: 4,
  lastReadAt: '2026-11-27T16:00:00Z', lastError: 'endereço não encontrado', lastErrorAt: new Date(new Date().setHours(14, 5, 0, 0)).toISOString(),
  failingSince: '2026-11-27T16:05:00Z', kept: true,
}

describe('BusyCalendarsCard', () => {
  it('connects a professional’s calendar by its address, and says when a calendar could not be read', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p1', 'Ana'), pro('p2', 'Bia')] }
      if (c.url === '/api/calendars' && c.method === 'GET') return { status: 200, body: { calendars: [failing] } }
      if (c.url === '/api/calendars/p1' && c.method === 'PUT')
        return { status: 200, body: { ...failing, professionalId: 'p1', professionalName: 'Ana', lastReadAt: null, lastError: '', lastErrorAt: null, failingSince: null, kept: false, events: 0 } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    // The freshness, in the card's words, and what becomes of the busy time.
    expect(await screen.findByText(/Não conseguimos ler sua agenda às 14:05: endereço não encontrado\./)).toHaveTextContent('continuam valendo por até 24 horas')
    expect(screen.getByText(/calendar\.google\.com · lida/)).toBeInTheDocument()
    expect(screen.getByText('Sem agenda conectada')).toBeInTheDocument()
    expect(screen.getByText('Onde encontro o endereço da agenda?')).toBeInTheDocument()

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Conectar agenda — Ana' }))
    // Labelled fields; the address is required the first time.
    await user.click(screen.getByRole('button', { name: 'Salvar agenda' }))
    expect(await screen.findByText('Cole o endereço iCal da agenda.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Endereço iCal da agenda'), 'agenda da ana')
    await user.click(screen.getByRole('button', { name: 'Salvar agenda' }))
    expect(await screen.findByText(/Endereço inválido/)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Endereço iCal da agenda'))
    await user.type(screen.getByLabelText('Endereço iCal da agenda'), 'webcal://p55-caldav.icloud.com/published/2/abc')
    await user.selectOptions(screen.getByLabelText('Eventos de dia inteiro'), 'ignore')
    await user.click(screen.getByRole('checkbox', { name: /Mostrar o título dos compromissos/ }))
    await user.click(screen.getByRole('button', { name: 'Salvar agenda' }))
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ url: 'webcal://p55-caldav.icloud.com/published/2/abc', showTitles: true, allDay: 'ignore', onFailure: 'keep' }),
    )
  })

  it('disconnects only once the owner confirms: a stray tap frees no busy time', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p2', 'Bia')] }
      if (c.url === '/api/calendars' && c.method === 'GET') return { status: 200, body: { calendars: [{ ...failing, writeError: null }] } }
      if (c.url === '/api/calendars/p2' && c.method === 'DELETE') return { status: 204 }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Desconectar agenda — Bia' }))
    let dialog = await screen.findByRole('alertdialog', { name: 'Desconectar a agenda de Bia?' })
    expect(dialog).toHaveTextContent('deixam de valer na sua página na hora')
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Desconectar agenda — Bia' }))
    dialog = await screen.findByRole('alertdialog', { name: 'Desconectar a agenda de Bia?' })
    await user.click(within(dialog).getByRole('button', { name: 'Desconectar' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/calendars/p2']))
    expect(await screen.findByText('Agenda desconectada')).toBeInTheDocument()
  })
})
