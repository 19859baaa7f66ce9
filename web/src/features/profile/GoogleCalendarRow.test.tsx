import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { failure, type BusyCalendar } from '@/lib/api/endpoints/calendars'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { BusyCalendarsCard } from './BusyCalendarsCard'
import GoogleReturnPage from './GoogleReturnPage'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const pro = (id: string, name: string) => ({ id, name, specialization: 'Psicóloga', photoUrl: '', active: true, ownHours: false, createdAt: '2026-01-01T00:00:00Z' })
const google = {
  professionalId: 'p2', professionalName: 'Bia', kind: 'google' as const, host: 'bia@gmail.com', account: 'bia@gmail.com', calendars: ['bia@gmail.com'], writeCalendar: '', showTitles: false, allDay: 'busy' as const, onFailure: 'keep' as const, events: 3,
  lastReadAt: '2026-11-27T16:00:00Z', lastError: '', lastErrorAt: null as string | null, failingSince: null as string | null, kept: false,
  writeError: null as BusyCalendar['writeError'],
} satisfies BusyCalendar

describe('BusyCalendarsCard with Google', () => {
  it('offers “Conectar Google Agenda” only when the operator configured Google', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p1', 'Ana')] }
      if (c.url === '/api/calendars') return { status: 200, body: { calendars: [], google: false } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    expect(await screen.findByRole('button', { name: 'Conectar agenda — Ana' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Conectar Google Agenda/ })).not.toBeInTheDocument()
  })

  it('sends the owner to Google’s consent page, and lets them choose the calendars that count', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p1', 'Ana'), pro('p2', 'Bia')] }
      if (c.url === '/api/calendars') return { status: 200, body: { calendars: [google], google: true } }
      if (c.url === '/api/calendars/p1/google' && c.method === 'POST') return { status: 200, body: { url: 'https://accounts.google.com/o/oauth2/v2/auth?state=s' } }
      if (c.url === '/api/calendars/p2/google' && c.method === 'GET')
        return {
          status: 200,
          body: {
            account: 'bia@gmail.com',
            calendars: [
              { id: 'bia@gmail.com', summary: 'Bia', primary: true, busy: true, writable: true },
              { id: 'c_1@group.calendar.google.com', summary: 'Consultório', primary: false, busy: false, writable: true },
              { id: 'pt.brazilian#holiday@group.v.calendar.google.com', summary: 'Feriados', primary: false, busy: false, writable: false },
            ],
          },
        }
      if (c.url === '/api/calendars/p2/google' && c.method === 'PUT') return { status: 200, body: google }
      if (c.url === '/api/calendars/p2/google/write' && c.method === 'PUT') return { status: 200, body: { ...google, writeCalendar: 'c_1@group.calendar.google.com' } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Conectar Google Agenda — Ana' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=s'))

    expect(screen.getByText(/Google Agenda: bia@gmail\.com · lida/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Escolher agendas do Google — Bia' }))
    const form = await screen.findByRole('form', { name: 'Agendas do Google — Bia' })
    expect(within(form).getByRole('checkbox', { name: 'Bia (principal)' })).toBeChecked()
    await user.click(within(form).getByRole('checkbox', { name: 'Consultório' }))
    // Only the calendars the account may write receive the appointments.
    const write = within(form).getByRole('combobox', { name: 'Agenda que recebe os agendamentos' })
    expect(within(write).getAllByRole('option').map((o) => o.textContent)).toEqual(['Nenhuma (não gravar os agendamentos)', 'Bia (principal)', 'Consultório'])
    await user.selectOptions(write, 'c_1@group.calendar.google.com')
    await user.click(within(form).getByRole('button', { name: 'Salvar agendas' }))
    await waitFor(() => expect(calls.find((c) => c.url === '/api/calendars/p2/google/write')?.body).toEqual({ calendar: 'c_1@group.calendar.google.com' }))
    expect(calls.find((c) => c.url === '/api/calendars/p2/google' && c.method === 'PUT')?.body).toEqual({
      calendars: ['bia@gmail.com', 'c_1@group.calendar.google.com'],
      onFailure: 'keep',
    })
  })

  it('says a refused grant in the server’s words and offers to connect again', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p2', 'Bia')] }
      if (c.url === '/api/calendars')
        return {
          status: 200,
          body: { calendars: [{ ...google, lastError: 'O Google recusou o acesso à agenda: conecte de novo.', lastErrorAt: '2026-11-27T16:05:00Z', failingSince: '2026-11-27T16:05:00Z', kept: true }], google: true },
        }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    expect(await screen.findByText(/^O Google recusou o acesso à agenda: conecte de novo\./)).toHaveTextContent('continuam valendo por até 24 horas')
    expect(screen.getByRole('button', { name: 'Conectar Google Agenda de novo — Bia' })).toBeInTheDocument()
    expect(screen.queryByText(/Não conseguimos gravar/)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Desconectar Google Agenda — Bia' })).toBeInTheDocument()
  })
})

describe('WriteErrorNote on the Google row', () => {
  it('says why the last appointment could not be written into Google, when', async () => {
    const at = new Date(new Date().setHours(14, 5, 0, 0)).toISOString()
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p2', 'Bia')] }
      if (c.url === '/api/calendars')
        return {
          status: 200,
          body: { calendars: [{ ...google, writeCalendar: 'bia@gmail.com', writeError: { at, message: 'o Google não respondeu agora; tentamos de novo em instantes' } }], google: true },
        }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: BusyCalendarsCard }], '/profile')
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Não conseguimos gravar na sua agenda às 14:05: o Google não respondeu agora; tentamos de novo em instantes.',
    )
    expect(screen.getByText(/recebe os agendamentos na agenda principal/)).toBeInTheDocument()
  })
})

describe('GoogleReturnPage', () => {
  it('hands the code and state back to the server once, then goes to the profile', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/calendars/google/finish') return { status: 200, body: google }
      return undefined
    })
    renderRoutes(
      [
        { path: '/profile/google', Component: GoogleReturnPage },
        { path: '/profile', Component: () => <p>Perfil</p> },
      ],
      '/profile/google?state=st4te&code=4/0Ab-xyz&scope=a%20b',
    )
    expect(await screen.findByText('Perfil')).toBeInTheDocument()
    const finish = calls.filter((c) => c.url === '/api/calendars/google/finish')
    expect(finish).toHaveLength(1)
    expect(finish[0].method).toBe('POST')
    expect(finish[0].body).toEqual({ code: '4/0Ab-xyz', state: 'st4te', error: '' })
  })

  it('shows a refused consent in pt-BR with the way back', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/calendars/google/finish')
        return { status: 400, body: { error: { code: 'google_oauth_denied', message: 'A conexão não foi autorizada no Google. Para conectar, clique em “Conectar Google Agenda” e permita o acesso do Agendei.' } } }
      return undefined
    })
    renderRoutes([{ path: '/profile/google', Component: GoogleReturnPage }], '/profile/google?error=access_denied&state=st4te')
    expect(await screen.findByRole('alert')).toHaveTextContent('A conexão não foi autorizada no Google')
    expect(screen.getByRole('link', { name: 'Voltar ao perfil' })).toHaveAttribute('href', '/profile')
    expect(calls.find((c) => c.url === '/api/calendars/google/finish')?.body).toEqual({ code: '', state: 'st4te', error: 'access_denied' })
  })
})

describe('failure (the card’s and the dashboard’s words)', () => {
  it('says a refused Google grant as is, and other failures with when they happened', () => {
    const at = new Date(new Date().setHours(14, 5, 0, 0))
    expect(failure({ ...google, lastError: 'O Google recusou o acesso à agenda: conecte de novo.', lastErrorAt: at.toISOString() }, at)).toBe(
      'O Google recusou o acesso à agenda: conecte de novo',
    )
    expect(failure({ ...google, lastError: 'o Google não respondeu agora; tentamos de novo em instantes', lastErrorAt: at.toISOString() }, at)).toBe(
      'Não conseguimos ler sua agenda às 14:05: o Google não respondeu agora; tentamos de novo em instantes',
    )
  })
})
