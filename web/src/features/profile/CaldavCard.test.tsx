import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { CaldavCard } from './CaldavCard'

afterEach(() => vi.unstubAllGlobals())

const pro = (id: string, name: string) => ({ id, name, specialization: 'Psicóloga', photoUrl: '', active: true, ownHours: false, createdAt: '2026-01-01T00:00:00Z' })
const connected = {
  professionalId: 'p2', professionalName: 'Bia', kind: 'caldav', host: 'caldav.icloud.com', account: 'bia@icloud.com', calendars: ['/1/calendars/casa/'],
  writeCalendar: '/1/calendars/trabalho/', showTitles: false, allDay: 'busy', onFailure: 'keep', events: 3, lastReadAt: '2026-11-27T16:00:00Z',
  lastError: 'usuário ou senha de app recusados', lastErrorAt: new Date(new Date().setHours(14, 5, 0, 0)).toISOString(), failingSince: '2026-11-27T16:05:00Z', kept: true,
  writeError: { at: new Date(new Date().setHours(14, 7, 0, 0)).toISOString(), message: 'a agenda escolhida não foi encontrada no servidor (HTTP 404): escolha outra' },
}
const ics = { ...connected, professionalId: 'p1', professionalName: 'Ana', kind: 'ics', host: 'calendar.google.com', account: '', calendars: [], writeCalendar: '', lastError: '', lastErrorAt: null, failingSince: null, kept: false, writeError: null }

describe('CaldavCard', () => {
  it('signs in, lists the calendars, saves the ones picked, and says why an account could not be read', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/professionals') return { status: 200, body: [pro('p1', 'Ana'), pro('p2', 'Bia')] }
      if (c.url === '/api/calendars' && c.method === 'GET') return { status: 200, body: { calendars: [ics, connected] } }
      if (c.url === '/api/calendars/p1/caldav/discover') {
        const body = c.body as { password: string }
        if (body.password !== 'abcd-efgh-ijkl-mnop')
          return { status: 400, body: { error: { code: 'caldav_auth', message: 'O servidor recusou o usuário ou a senha de app. Confira o usuário e crie uma nova senha de app no seu provedor.' } } }
        return { status: 200, body: { calendars: [{ path: '/1/calendars/casa/', name: 'Casa' }, { path: '/1/calendars/trabalho/', name: 'Trabalho' }] } }
      }
      if (c.url === '/api/calendars/p1/caldav' && c.method === 'PUT') return { status: 200, body: { ...connected, professionalId: 'p1', lastReadAt: null, lastError: '', lastErrorAt: null } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: CaldavCard }], '/profile')
    // Bia's account: only the user and the host, its failure in the card's words.
    expect(await screen.findByText(/Não conseguimos ler sua agenda às 14:05: usuário ou senha de app recusados\./)).toBeInTheDocument()
    expect(screen.getByText(/bia@icloud\.com em caldav\.icloud\.com/)).toBeInTheDocument()
    // And why the last appointment could not be written there.
    expect(screen.getByText('Não conseguimos gravar na sua agenda às 14:07: a agenda escolhida não foi encontrada no servidor (HTTP 404): escolha outra.')).toBeInTheDocument()
    // Ana's iCal address is another card's: here she has no account.
    expect(screen.getByText('Sem conta CalDAV')).toBeInTheDocument()
    expect(screen.getByText('Onde crio a senha de app?')).toBeInTheDocument()

    // Pasted, not typed key by key: the same events a form sees, in a fraction of the time (typing ~80 keys took
    // past vitest's 5 s on a loaded machine).
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Conectar CalDAV — Ana' }))
    await user.click(screen.getByRole('button', { name: 'Buscar agendas' }))
    expect(await screen.findByText('Informe o endereço do servidor, o usuário e a senha de app.')).toBeInTheDocument()
    await user.click(screen.getByLabelText('Endereço do servidor CalDAV'))
    await user.paste('https://caldav.icloud.com')
    await user.click(screen.getByLabelText('Usuário'))
    await user.paste('ana@icloud.com')
    await user.click(screen.getByLabelText('Senha de app'))
    await user.paste('errada')
    await user.click(screen.getByRole('button', { name: 'Buscar agendas' }))
    expect(await screen.findByText(/O servidor recusou o usuário ou a senha de app/)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Senha de app'))
    await user.click(screen.getByLabelText('Senha de app'))
    await user.paste('abcd-efgh-ijkl-mnop')
    await user.click(screen.getByRole('button', { name: 'Buscar agendas' }))
    await user.click(await screen.findByRole('checkbox', { name: 'Casa' }))
    await user.selectOptions(screen.getByLabelText('Agenda que recebe os agendamentos do Agendei'), '/1/calendars/trabalho/')
    await user.click(screen.getByRole('button', { name: 'Salvar conta' }))
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        url: 'https://caldav.icloud.com', user: 'ana@icloud.com', password: 'abcd-efgh-ijkl-mnop', calendars: ['/1/calendars/casa/'],
        writeCalendar: '/1/calendars/trabalho/', allDay: 'busy', onFailure: 'keep', showTitles: false,
      }),
    )
  })
})
