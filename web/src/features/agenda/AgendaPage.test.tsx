import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import AgendaPage from './AgendaPage'

afterEach(() => vi.unstubAllGlobals())

const date = '2026-12-01'
const pros = [
  { id: 'p1', name: 'Ana Lima', active: true },
  { id: 'p2', name: 'Bruno Reis', active: true },
  { id: 'p3', name: 'Débora Freitas', active: true },
]
const open = { windows: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }], closed: '', label: '' }
let n = 0
const appt = (pro: string, time: string, clientName: string, status = 'confirmed', duration = 60) => ({
  id: `a${++n}`, professionalId: pro, professionalName: pros.find((p) => p.id === pro)!.name, serviceId: 's1', serviceName: 'Sessão', duration,
  bufferBefore: 0, bufferAfter: 15, priceCents: 10000, clientName, clientEmail: '', clientPhone: '11988887777', notes: '', date, time, status,
  createdAt: '2026-11-20T12:00:00Z', seriesId: null, answer: '',
})
// Ten appointments at overlapping times across three professionals, two of them on top of each other in one column.
const appointments = [
  appt('p1', '09:00', 'Carla Dias'), appt('p2', '09:00', 'Diego Alves'), appt('p3', '09:00', 'Elisa Prado'),
  appt('p1', '10:00', 'Fábio Nunes'), appt('p1', '10:30', 'Gabi Souza', 'confirmed', 30), appt('p2', '10:30', 'Hugo Melo'),
  appt('p3', '15:00', 'Iara Costa'), appt('p3', '15:30', 'João Pires', 'completed'), appt('p2', '16:00', 'Karina Luz', 'no_show'),
  appt('p1', '17:00', 'Lucas Rocha'),
]

// Deposits of three of them (the others have none).
const deposit: Record<string, string> = { [appointments[0].id]: 'pending', [appointments[3].id]: 'paid', [appointments[8].id]: 'retained' }

function setup(path = `/agenda?d=${date}`) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/waitlist?')) return { status: 200, body: { entries: [] } }
    if (c.url === '/api/waitlist/settings') return { status: 200, body: { offerMinutes: 15 } }
    if (c.url === '/api/professionals')
      return { status: 200, body: pros.map((p) => ({ ...p, specialization: 'Psicologia', email: null, photoUrl: '', ownHours: false })) }
    if (c.url.startsWith('/api/agenda/grid'))
      return {
        status: 200,
        // The next day's grid comes slowly, as on a loaded machine.
        delayMs: c.url.includes('from=2026-12-02') ? 300 : 0,
        body: {
          today: '2026-11-30', now: '10:00', professionals: pros,
          days: [{ date, columns: pros.map((p) => ({ professionalId: p.id, ...open })) }],
          appointments: appointments.map((a) => ({ ...a, deposit: deposit[a.id] ?? null, personalBusy: false })),
          blocks: [{ id: 'b1', professionalId: 'p2', professionalName: 'Bruno Reis', date, start: '14:00', end: '15:00', reason: 'Supervisão', kept: [] }],
          busy: [],
        },
      }
    return undefined
  })
  const router = renderRoutes([{ path: '/agenda', Component: AgendaPage }], path)
  return { calls, router }
}

it('shows every appointment of the day in its professional’s column, overlapping ones side by side', async () => {
  setup()
  const columns = await screen.findAllByTestId('agenda-column')
  expect(columns).toHaveLength(3)
  for (const a of appointments) {
    const column = columns[pros.findIndex((p) => p.id === a.professionalId)]
    expect(within(column).getByRole('button', { name: new RegExp(`^${a.time} ${a.clientName}`) })).toBeInTheDocument()
  }
  // Statuses are told apart by words, not colour alone.
  expect(screen.getByRole('button', { name: /João Pires.*Concluído/ })).toBeInTheDocument()
  expect(screen.getByRole('button', { name: /Karina Luz.*Não compareceu/ })).toBeInTheDocument()
  // A busy 09:00 of Ana's is not offered, Bruno's free 13:00 is, and the block is labelled.
  expect(within(columns[0]).queryByRole('button', { name: /^DISPONÍVEL 09:00/ })).toBeNull()
  expect(within(columns[1]).getByRole('button', { name: /^DISPONÍVEL 13:00 — Bruno Reis/ })).toBeInTheDocument()
  expect(within(columns[1]).getByRole('note', { name: /BLOQUEADO 14:00–15:00 · Supervisão/ })).toBeInTheDocument()
  expect(within(columns[0]).getByText('Pausa · até 13:00')).toBeInTheDocument()
})

it('a filter dims what it does not match and never turns a booked time free', async () => {
  setup(`/agenda?d=${date}&q=carla`)
  const columns = await screen.findAllByTestId('agenda-column')
  expect(within(columns[0]).getByRole('button', { name: /^09:00 Carla Dias/ }).getAttribute('aria-label')).not.toContain('fora do filtro')
  expect(within(columns[0]).getByRole('button', { name: /^10:00 Fábio Nunes.*fora do filtro/ })).toBeInTheDocument()
  expect(within(columns[0]).queryByRole('button', { name: /^DISPONÍVEL 10:00/ })).toBeNull()
})

it('keeps view, date and professional in the address', async () => {
  const { router } = setup()
  await screen.findAllByTestId('agenda-column')
  fireEvent.click(screen.getByRole('button', { name: 'Semana', exact: true } as never))
  expect(router.state.location.search).toContain('v=week')
  fireEvent.click(screen.getByRole('button', { name: /Próximo/ }))
  expect(router.state.location.search).toContain('d=2026-12-08')
})

it('until the next day arrives the last day’s grid is dimmed and takes no tap', async () => {
  setup()
  await screen.findAllByTestId('agenda-column')
  fireEvent.click(screen.getByRole('button', { name: /Próximo/ }))
  const region = screen.getByRole('region', { name: 'Grade da agenda', hidden: true })
  const wrapper = region.parentElement!
  expect(wrapper).toHaveAttribute('inert')
  expect(wrapper).toHaveAttribute('aria-busy', 'true')
  await vi.waitFor(() => expect(wrapper).not.toHaveAttribute('inert'))
})

it('a tap on a free stretch opens Novo agendamento with the professional, date and time', async () => {
  setup()
  const columns = await screen.findAllByTestId('agenda-column')
  fireEvent.click(within(columns[2]).getByRole('button', { name: /^DISPONÍVEL 11:00/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Novo agendamento' })
  expect(within(dialog).getByLabelText('Data *')).toHaveValue(date)
  expect(within(dialog).getByLabelText('Horário *')).toHaveValue('11:00')
})

it('marks each appointment’s deposit with words and an icon, and only those that have one', async () => {
  setup()
  const columns = await screen.findAllByTestId('agenda-column')
  const carla = within(columns[0]).getByRole('button', { name: /^09:00 Carla Dias.*, Sinal pendente/ })
  expect(within(carla).getByText('Sinal pendente')).toHaveClass('grid-status', 'grid-deposit-pending')
  const fabio = within(columns[0]).getByRole('button', { name: /^10:00 Fábio Nunes.*, Sinal pago/ })
  expect(within(fabio).getByText('Sinal pago')).toHaveClass('grid-deposit-paid')
  expect(screen.getByRole('button', { name: /^16:00 Karina Luz.*Não compareceu.*, Sinal retido/ })).toBeInTheDocument()
  // The others carry no mark at all.
  const gabi = within(columns[0]).getByRole('button', { name: /^10:30 Gabi Souza/ })
  expect(gabi.getAttribute('aria-label')).not.toContain('Sinal')
  expect(gabi.querySelector('[data-deposit]')).toBeNull()
  expect(document.querySelectorAll('[data-deposit]')).toHaveLength(3)
})

/** A phone: the screen is narrower than `sm`. */
const phone = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }))
const gridCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/api/agenda/grid')).map((c) => new URL(c.url, 'http://x').searchParams)

it('the week keeps "Todos os profissionais": it asks for everyone, says so in its title and divides each date by professional', async () => {
  const { calls } = setup(`/agenda?d=${date}&v=week`)
  const columns = await screen.findAllByTestId('agenda-column')
  expect(columns).toHaveLength(3)
  expect(screen.getByLabelText('Profissional')).toHaveValue('')
  expect(screen.getByRole('option', { name: 'Todos os profissionais' })).toBeInTheDocument()
  expect(gridCalls(calls).at(-1)!.get('professional')).toBeNull()
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Semana de todos os profissionais · 30 nov – 6 dez')
  expect(screen.getByTestId('agenda-group-title')).toHaveTextContent('Ter 01/12')
  for (const a of appointments) {
    const column = screen.getByRole('group', { name: `${pros.find((p) => p.id === a.professionalId)!.name}, Ter 01/12` })
    expect(within(column).getByRole('button', { name: new RegExp(`^${a.time} ${a.clientName}`) })).toBeInTheDocument()
  }
})

it('the week of one professional names them in its title, and the picker can go back to everyone', async () => {
  const { calls, router } = setup(`/agenda?d=${date}&v=week&p=p2`)
  await screen.findAllByTestId('agenda-column')
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Semana de Bruno Reis · 30 nov – 6 dez')
  expect(gridCalls(calls).at(-1)!.get('professional')).toBe('p2')
  fireEvent.change(screen.getByLabelText('Profissional'), { target: { value: '' } })
  expect(router.state.location.search).not.toContain('p=')
  expect(await screen.findByText('Semana de todos os profissionais · 30 nov – 6 dez')).toBeInTheDocument()
})

it('on a phone the filters fold into one button that counts them, and open in a sheet', async () => {
  phone()
  const { router } = setup(`/agenda?d=${date}&s=confirmed&q=carla`)
  await screen.findAllByTestId('agenda-column')
  expect(screen.queryByLabelText('Buscar cliente')).toBeNull()
  fireEvent.click(screen.getByRole('button', { name: 'Filtros, 2 ativos' }))
  const sheet = await screen.findByRole('dialog', { name: 'Filtros' })
  expect(within(sheet).getByLabelText('Buscar cliente')).toHaveValue('carla')
  expect(within(sheet).getByLabelText('Status')).toHaveValue('confirmed')
  fireEvent.change(within(sheet).getByLabelText('Profissional'), { target: { value: 'p3' } })
  expect(router.state.location.search).toContain('p=p3')
  fireEvent.click(within(sheet).getByRole('button', { name: 'Limpar filtros' }))
  expect(router.state.location.search).not.toMatch(/[?&](s|q|p)=/)
  fireEvent.click(within(sheet).getByRole('button', { name: 'Ver agenda' }))
  expect(screen.queryByRole('dialog', { name: 'Filtros' })).toBeNull()
  expect(screen.getByRole('button', { name: 'Filtros' })).toBeInTheDocument()
})

it('on a phone the week of everyone shows one professional at a time, a tab strip switching, the filter still "Todos"', async () => {
  phone()
  const { router } = setup(`/agenda?d=${date}&v=week`)
  const strip = await screen.findByRole('tablist', { name: 'Profissional da semana' })
  expect(within(strip).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Ana Lima', 'Bruno Reis', 'Débora Freitas'])
  expect(within(strip).getByRole('tab', { name: 'Ana Lima' })).toHaveAttribute('aria-selected', 'true')
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Semana de Ana Lima · 30 nov – 6 dez')
  expect(screen.getAllByTestId('agenda-column')).toHaveLength(1)
  expect(screen.getByRole('button', { name: /^09:00 Carla Dias/ })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: /Diego Alves/ })).toBeNull()
  fireEvent.click(within(strip).getByRole('tab', { name: 'Bruno Reis' }))
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Semana de Bruno Reis · 30 nov – 6 dez')
  expect(screen.getByRole('button', { name: /^09:00 Diego Alves/ })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: /Carla Dias/ })).toBeNull()
  expect(router.state.location.search).not.toContain('p=')
})

it('on a phone the week of one filtered professional keeps the tab strip: a tab there changes the filter', async () => {
  phone()
  const { router } = setup(`/agenda?d=${date}&v=week&p=p2`)
  const strip = await screen.findByRole('tablist', { name: 'Profissional da semana' })
  expect(within(strip).getByRole('tab', { name: 'Bruno Reis' })).toHaveAttribute('aria-selected', 'true')
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Semana de Bruno Reis · 30 nov – 6 dez')
  fireEvent.click(within(strip).getByRole('tab', { name: 'Débora Freitas' }))
  expect(router.state.location.search).toContain('p=p3')
  expect(await screen.findByText('Semana de Débora Freitas · 30 nov – 6 dez')).toBeInTheDocument()
})
