import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import ClientHistoryPage from './ClientHistoryPage'
import StatementPage from './StatementPage'

afterEach(() => vi.unstubAllGlobals())

const ref = '0b6f1c2e-8a4d-4f7e-9c1a-2d3e4f5a6b7c'
const line = (id: string, date: string, over: Record<string, unknown> = {}) => ({
  appointmentId: id, date, time: '10:00', service: 'Sessão', professional: 'Ana', status: 'completed', priceCents: 15000, depositCents: 0, depositAt: null,
  paidCents: 0, dueCents: 15000, billable: true, paid: false, byDeposit: false, paidAt: null, ...over,
})
const appointment = (id: string, date: string) => ({
  id, professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 50, priceCents: 15000, clientName: 'Maria Souza',
  clientEmail: 'maria@x.com', clientPhone: '11911111111', notes: '', date, time: '10:00', status: 'completed', createdAt: '2026-11-01T12:00:00Z', seriesId: null, answer: '',
})

function history(payments: ReturnType<typeof line>[]) {
  return {
    client: { identifier: '11911111111', name: 'Maria Souza', email: 'maria@x.com', phone: '11911111111' },
    appointments: [appointment(ref, '2026-11-19'), appointment('a2', '2026-11-03')], count: 2, attendedCount: 2, revenueCents: 30000, lastAttended: '2026-11-19',
    scheduledCount: 0, scheduledCents: 0, nextAppointment: '', noShows: 0, truncated: false, deposits: [], payments,
    dueCents: payments.reduce((n, p) => n + p.dueCents, 0),
  }
}

it('marks a session paid in one tap: a toggle pressed when paid, its state in words, and the client owes less', async () => {
  let payments = [line(ref, '2026-11-19'), line('a2', '2026-11-03', { depositCents: 15000, depositAt: '2026-11-01T12:00:00Z', paidCents: 15000, dueCents: 0, paid: true, byDeposit: true })]
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history(payments) }
    if (c.url === `/api/appointments/${ref}/payment` && c.method === 'PUT') {
      const paid = (c.body as { paid: boolean }).paid
      payments = [line(ref, '2026-11-19', paid ? { paid: true, paidCents: 15000, dueCents: 0, paidAt: '2026-11-23T12:00:00Z' } : {}), payments[1]]
      return { status: 200, body: payments[0] }
    }
    return undefined
  })
  renderRoutes([{ path: '/clients/:key', Component: ClientHistoryPage }], `/clients/${ref}`)
  const list = await screen.findByRole('list', { name: 'Pagamentos do cliente' })
  const [unpaid, byDeposit] = within(list).getAllByRole('listitem')
  expect(unpaid).toHaveTextContent('A receber: R$ 150,00')
  expect(byDeposit).toHaveTextContent('Pago pelo sinal')
  // The deposit paid it whole: nothing to toggle.
  expect(within(byDeposit).queryByRole('button')).not.toBeInTheDocument()
  expect(screen.getAllByText('R$ 150,00').length).toBeGreaterThan(0)
  const toggle = within(unpaid).getByRole('button', { name: 'Pago' })
  expect(toggle).toHaveAttribute('aria-pressed', 'false')
  fireEvent.click(toggle)
  await waitFor(() => expect(within(screen.getByRole('list', { name: 'Pagamentos do cliente' })).getAllByRole('listitem')[0]).toHaveTextContent('Pago em 23/11/2026'))
  expect(within(screen.getByRole('list', { name: 'Pagamentos do cliente' })).getByRole('button', { name: 'Pago' })).toHaveAttribute('aria-pressed', 'true')
  expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ paid: true }])
})

it('opens the chosen month\'s statement from the client\'s page', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history([line(ref, '2026-11-19')]) }
    return undefined
  })
  const router = renderRoutes(
    [
      { path: '/clients/:key', Component: ClientHistoryPage },
      { path: '/clients/:key/statement/:month', Component: () => <p>extrato</p> },
    ],
    `/clients/${ref}`,
  )
  fireEvent.change(await screen.findByLabelText('Mês do extrato'), { target: { value: '2026-10' } })
  fireEvent.click(screen.getByRole('button', { name: 'Ver extrato' }))
  await waitFor(() => expect(router.state.location.pathname).toBe(`/clients/${ref}/statement/2026-10`))
})

const statement = {
  month: '2026-11',
  lines: [
    line('s1', '2026-11-03', { depositCents: 15000, depositAt: '2026-11-01T12:00:00Z', paidCents: 15000, dueCents: 0, paid: true, byDeposit: true }),
    line('s2', '2026-11-10', { depositCents: 5000, depositAt: '2026-11-08T12:00:00Z', paidCents: 5000, dueCents: 10000 }),
    line('s3', '2026-11-17', { paidCents: 15000, dueCents: 0, paid: true, paidAt: '2026-11-18T12:00:00Z' }),
  ],
  totalCents: 45000, paidCents: 35000, dueCents: 10000,
  pix: { copyPaste: '00020126...6304ABCD', qrCode: 'data:image/png;base64,iVBOR', receiver: 'DONA TERAPIAS' },
  client: { name: 'Maria Souza', email: 'maria@x.com', phone: '11911111111' }, practice: 'Dona Terapias',
  message: 'Olá, Maria! Segue o extrato', whatsappUrl: 'https://wa.me/5511911111111?text=Ol%C3%A1',
}

it('shows the statement: each session paid or not, the totals, the Pix for what is due, and says "enviado" only once queued', async () => {
  let reply: { status: number; body: unknown } = { status: 429, body: { error: { code: 'rate_limited', message: 'Muitas tentativas. Aguarde 1 hora e tente novamente.' } } }
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients/statement?')) return { status: 200, body: statement }
    if (c.url === '/api/clients/statement/email') return reply
    return undefined
  })
  renderRoutes([{ path: '/clients/:key/statement/:month', Component: StatementPage }], `/clients/${ref}/statement/2026-11`)
  expect(await screen.findByRole('heading', { name: 'Extrato de novembro de 2026' })).toBeInTheDocument()
  const rows = within(screen.getByRole('table', { name: 'Sessões do mês' })).getAllByRole('row').slice(1)
  expect(rows.map((r) => r.textContent)).toEqual([
    '03/11/2026 10:00SessãoR$ 150,00Pago pelo sinal',
    '10/11/2026 10:00SessãoR$ 150,00A receber: R$ 100,00 (sinal de R$ 50,00 recebido)',
    '17/11/2026 10:00SessãoR$ 150,00Pago em 18/11/2026',
  ])
  const totals = screen.getByLabelText('Totais')
  expect(totals).toHaveTextContent('TotalR$ 450,00')
  expect(totals).toHaveTextContent('PagoR$ 350,00')
  expect(totals).toHaveTextContent('A pagarR$ 100,00')
  expect(screen.getByRole('img', { name: 'QR Code Pix de R$ 100,00 para DONA TERAPIAS' })).toHaveAttribute('src', statement.pix.qrCode)
  expect(screen.getByLabelText('Pix Copia e Cola')).toHaveValue(statement.pix.copyPaste)
  expect(screen.getByRole('link', { name: /Abrir no WhatsApp/ })).toHaveAttribute('href', statement.whatsappUrl)
  expect(calls.find((c) => c.url.startsWith('/api/clients/statement?'))?.url).toBe(`/api/clients/statement?key=${ref}&month=2026-11`)

  fireEvent.click(screen.getByRole('button', { name: /Enviar por e-mail/ }))
  expect(await screen.findByText('Muitas tentativas. Aguarde 1 hora e tente novamente.')).toBeInTheDocument()
  expect(screen.queryByText('Extrato enviado por e-mail')).not.toBeInTheDocument()
  reply = { status: 200, body: { notice: 'email' } }
  fireEvent.click(screen.getByRole('button', { name: /Enviar por e-mail/ }))
  expect(await screen.findByText('Extrato enviado por e-mail')).toBeInTheDocument()
  expect(calls.filter((c) => c.url === '/api/clients/statement/email').map((c) => c.body)).toEqual([
    { key: ref, month: '2026-11' },
    { key: ref, month: '2026-11' },
  ])
})

it('asks the payer\'s CPF with the LGPD reason beside it only while the receipts are on', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: { ...history([]), client: { ...history([]).client, cpf: '' } } }
    if (c.url === '/api/receita-saude/settings') return { status: 200, body: { enabled: true, document: '52998224725', occupation: '255' } }
    if (c.url === '/api/clients/contact') return { status: 200, body: { ...history([]), client: { ...history([]).client, cpf: '11144477735' } } }
    return undefined
  })
  renderRoutes([{ path: '/clients/:key', Component: ClientHistoryPage }], `/clients/${ref}`)
  fireEvent.click(await screen.findByRole('button', { name: 'Editar dados do cliente' }))
  const cpf = await screen.findByLabelText('CPF de quem paga')
  expect(screen.getByText('Pedimos seu CPF porque a Receita Federal exige o CPF de quem paga em cada recibo de saúde (IN RFB 2.240/2024).')).toBeInTheDocument()
  fireEvent.change(cpf, { target: { value: '111.444.777-3' } })
  fireEvent.click(screen.getByRole('button', { name: 'Salvar' }))
  expect(await screen.findByText('CPF inválido: confira os 11 dígitos.')).toBeInTheDocument()
  fireEvent.change(cpf, { target: { value: '111.444.777-35' } })
  fireEvent.click(screen.getByRole('button', { name: 'Salvar' }))
  await waitFor(() => expect(calls.find((c) => c.url === '/api/clients/contact')?.body).toMatchObject({ cpf: '111.444.777-35' }))
})
