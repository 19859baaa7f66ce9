import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import ReportsPage from './ReportsPage'

afterEach(() => vi.unstubAllGlobals())

const months = ['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10']
const report = (period: { key: string; from: string; to: string }) => ({
  period,
  overview: {
    totalAppointments: 6, uniqueClients: 5, attendedClients: 2, realizedCount: 3, realizedCents: 32000,
    scheduledCount: 0, scheduledCents: 0, pendingCount: 1, pendingCents: 7000, revenuePerClientCents: 16000, averagePerAppointmentCents: 10666,
  },
  byStatus: { confirmed: 1, cancelled: 1, completed: 3, no_show: 1 },
  recentDates: [],
  monthlyRevenue: months.map((month) => ({ month, realizedCents: month === '2026-10' ? 32000 : 0, scheduledCents: 0 })),
  noShows: { due: 5, count: 1, rate: 20, byProfessional: [], byMonth: months.map((name) => ({ name, due: 0, count: 0, rate: 0 })) },
  deposits: { receivedCount: 0, receivedCents: 0, retainedCount: 0, retainedCents: 0, returnedCount: 0, returnedCents: 0, toReturnCount: 0, toReturnCents: 0 },
})

function setup(path: string) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals' || c.url === '/api/services') return { status: 200, body: [] }
    if (c.url.startsWith('/api/reports')) {
      const q = new URLSearchParams(c.url.split('?')[1] ?? '')
      const key = q.get('period') ?? 'month'
      return { status: 200, body: report(key === 'custom' ? { key, from: q.get('from')!, to: q.get('to')! } : { key, from: '2026-10-01', to: '2026-10-31' }) }
    }
    return undefined
  })
  const router = renderRoutes([{ path: '/reports', Component: ReportsPage }], path)
  return { calls, router }
}

const reportCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/api/reports')).map((c) => c.url)

it('asks for the chosen period, keeps it in the address, and says what each number is', async () => {
  const { calls, router } = setup('/reports')
  expect(await screen.findByText('Receita realizada')).toBeInTheDocument()
  fireEvent.change(screen.getByLabelText('Período'), { target: { value: 'last_month' } })
  await waitFor(() => expect(reportCalls(calls)).toContain('/api/reports?period=last_month'))
  expect(router.state.location.search).toBe('?periodo=last_month')
  expect(await screen.findByText('De 01/10/2026 a 31/10/2026')).toBeInTheDocument()
  expect(screen.getByText('Receita por cliente').parentElement).toHaveTextContent('R$ 160,00')
  expect(screen.getByText('Receita por cliente').parentElement).toHaveTextContent('2 clientes atendidos')
  expect(screen.getByText('Média por atendimento').parentElement).toHaveTextContent('R$ 106,66')
  expect(screen.queryByText('Ticket médio')).not.toBeInTheDocument()
  expect(screen.getByText(/1 agendamento que já passou continua como confirmado/)).toBeInTheDocument()
})

it('a custom period asks for two dates with their labels, and only once they are in order', async () => {
  const { calls } = setup('/reports?periodo=custom&de=2026-10-10&ate=2026-10-01')
  expect(await screen.findByLabelText('Data inicial')).toHaveValue('2026-10-10')
  expect(screen.getByLabelText('Data final')).toHaveValue('2026-10-01')
  expect(screen.getByRole('alert')).toHaveTextContent('Escolha a data inicial e a final')
  expect(reportCalls(calls)).toEqual([])
  fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2026-10-20' } })
  await waitFor(() => expect(reportCalls(calls)).toEqual(['/api/reports?period=custom&from=2026-10-10&to=2026-10-20']))
})
