import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { WaitlistPanel } from './WaitlistPanel'

afterEach(() => vi.unstubAllGlobals())

const entry = (id: string, clientName: string, extra: object = {}) => ({
  id, clientName, clientEmail: `${id}@example.com`, clientPhone: '', clientKey: `${id}@example.com`, serviceId: 's1', serviceName: 'Sessão',
  professionalId: null, professionalName: '', firstDate: '2026-12-01', lastDate: '2026-12-03', partOfDay: 'manha', createdAt: '2026-11-20T12:00:00Z', lastOffer: null, channels: ['email'], ...extra,
})

it('lists the day’s waitlist in order of arrival and offers a free time by hand', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/waitlist?date=2026-12-01&limit=20&offset=0')
      return {
        status: 200,
        body: {
          total: 2,
          entries: [
            entry('w1', 'Paula Reis'),
            entry('w2', 'Sara Lima', { clientEmail: '', clientPhone: '(11) 98888-7777', channels: [], lastOffer: { date: '2026-12-01', time: '09:00', expiresAt: '2026-12-01T12:15:00Z', status: 'open', byOwner: false, sent: false, channels: [] } }),
          ],
        },
      }
    if (c.url === '/api/waitlist/settings') return { status: 200, body: { offerMinutes: 15 } }
    if (c.url === '/api/professionals') return { status: 200, body: [{ id: 'p1', name: 'Ana Lima', active: true, specialization: 'Psi', email: null, photoUrl: '', ownHours: false }] }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: ['10:00', '11:00'] } }
    if (c.url === '/api/waitlist/w1/offers') return { status: 201, body: { date: '2026-12-01', time: '10:00', expiresAt: '2026-12-01T13:15:00Z', status: 'open', byOwner: true, sent: true, channels: ['email'] } }
    return undefined
  })
  renderRoutes([{ path: '/agenda', Component: () => <WaitlistPanel date="2026-12-01" /> }], '/agenda')
  const items = await screen.findAllByRole('listitem')
  expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual(['1. Paula Reis', '2. Sara Lima'])
  expect(within(items[1]).getByText(/Oferecido: 01\/12\/2026 às 09:00 — aguardando resposta \(sem aviso automático: avise o cliente\)/)).toBeInTheDocument()
  expect(within(items[0]).getByText('Recebe as ofertas por e-mail.')).toBeInTheDocument()

  fireEvent.click(within(items[0]).getByRole('button', { name: 'Oferecer horário' }))
  const form = screen.getByRole('form', { name: 'Oferecer horário a Paula Reis' })
  await within(form).findByRole('option', { name: 'Ana Lima' })
  fireEvent.change(within(form).getByLabelText('Profissional'), { target: { value: 'p1' } })
  await waitFor(() => expect(within(form).getByText('10:00')).toBeInTheDocument())
  fireEvent.change(within(form).getByLabelText('Horário livre'), { target: { value: '10:00' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Enviar oferta' }))
  await waitFor(() => expect(calls.find((c) => c.url === '/api/waitlist/w1/offers')?.body).toEqual({ date: '2026-12-01', time: '10:00', professionalId: 'p1' }))
})

it('pages a long list: twenty at a time, numbered by arrival', async () => {
  const page = (offset: number, n: number) => Array.from({ length: n }, (_, i) => entry(`w${offset + i}`, `Cliente ${offset + i + 1}`))
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/waitlist?date=2026-12-01&limit=20&offset=0') return { status: 200, body: { total: 45, entries: page(0, 20) } }
    if (c.url === '/api/waitlist?date=2026-12-01&limit=20&offset=20') return { status: 200, body: { total: 45, entries: page(20, 20) } }
    if (c.url === '/api/waitlist/settings') return { status: 200, body: { offerMinutes: 15 } }
    return undefined
  })
  renderRoutes([{ path: '/agenda', Component: () => <WaitlistPanel date="2026-12-01" /> }], '/agenda')
  expect(await screen.findByRole('heading', { name: 'Lista de espera (45)' })).toBeInTheDocument()
  expect(screen.getByText('1–20 de 45')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Anteriores' })).toBeDisabled()
  fireEvent.click(screen.getByRole('button', { name: 'Próximos' }))
  expect(await screen.findByText('21. Cliente 21')).toBeInTheDocument()
  expect(screen.getByText('21–40 de 45')).toBeInTheDocument()
  expect(calls.some((c) => c.url === '/api/waitlist?date=2026-12-01&limit=20&offset=20')).toBe(true)
})

// Issue 41: a client reached by push or WhatsApp alone was listed "sem e-mail: avise o cliente". The list now says how each client
// hears of an offer, and warns only of one no channel reaches.
it('says how each client is told of an offer, and warns only of one no channel reaches', async () => {
  const offer = (channels: string[]) => ({ date: '2026-12-01', time: '09:00', expiresAt: '2026-12-01T12:15:00Z', status: 'open', byOwner: false, sent: channels.length > 0, channels })
  const phoneOnly = { clientEmail: '', clientPhone: '(11) 98888-7777' }
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/waitlist?date=2026-12-01&limit=20&offset=0')
      return {
        status: 200,
        body: {
          total: 5,
          entries: [
            entry('w1', 'Pedro Push', { ...phoneOnly, channels: ['push'], lastOffer: offer(['push']) }),
            entry('w2', 'Wanda Zap', { ...phoneOnly, channels: ['whatsapp', 'push'], lastOffer: offer(['whatsapp', 'push']) }),
            entry('w3', 'Nina Nada', { ...phoneOnly, channels: [], lastOffer: offer([]) }),
            entry('w4', 'Paulo Espera', { ...phoneOnly, channels: ['push'] }),
            entry('w5', 'Nilo Espera', { ...phoneOnly, channels: [] }),
          ],
        },
      }
    if (c.url === '/api/waitlist/settings') return { status: 200, body: { offerMinutes: 15 } }
    return undefined
  })
  renderRoutes([{ path: '/agenda', Component: () => <WaitlistPanel date="2026-12-01" /> }], '/agenda')
  const list = (await screen.findByText('1. Pedro Push')).closest('ol') as HTMLElement // not the toasts' list
  const items = within(list).getAllByRole('listitem')
  expect(within(items[0]).getByText(/aguardando resposta \(avisado por notificação no celular\)/)).toBeInTheDocument()
  expect(within(items[1]).getByText(/aguardando resposta \(avisado por WhatsApp e por notificação no celular\)/)).toBeInTheDocument()
  expect(within(items[2]).getByText(/aguardando resposta \(sem aviso automático: avise o cliente\)/)).toBeInTheDocument()
  expect(within(items[3]).getByText('Recebe as ofertas por notificação no celular.')).toBeInTheDocument()
  expect(within(items[4]).getByText('Nenhum aviso automático alcança este cliente: ao oferecer um horário, avise-o você.')).toBeInTheDocument()
  for (const li of items.slice(0, 2)) expect(within(li).queryByText(/avise/)).toBeNull()
  expect(screen.queryByText(/sem e-mail/)).toBeNull()
})
