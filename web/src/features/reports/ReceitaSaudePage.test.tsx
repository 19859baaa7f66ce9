import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import ReceitaSaudePage from './ReceitaSaudePage'

afterEach(() => vi.unstubAllGlobals())

const receipt = (over: Record<string, unknown>) => ({
  appointmentId: 'a1', part: 'payment', date: '2026-11-23', amountCents: 15000, amountWords: 'cento e cinquenta reais', sessionDate: '2026-11-17', service: 'Sessão',
  professional: 'Ana Lima', council: 'CRP 06/12345', payerName: 'Maria Souza', payerCpf: '11144477735', ...over,
})

it('prints a receipt per payment with payer, CPF, value in words and council, and says which are left out of the file', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/receita-saude/receipts?month=2026-11')
      return {
        status: 200,
        body: {
          month: '2026-11', practice: 'Consultório Ana', payee: '52998224725', missingCpf: 1, totalCents: 25000,
          receipts: [receipt({ part: 'deposit', amountCents: 5000, amountWords: 'cinquenta reais', date: '2026-11-08' }), receipt({ appointmentId: 'a2', payerName: 'João', payerCpf: '', amountCents: 20000, amountWords: 'duzentos reais' })],
        },
      }
    return undefined
  })
  renderRoutes([{ path: '/reports/receita-saude', Component: ReceitaSaudePage }], '/reports/receita-saude?month=2026-11')
  const list = await screen.findByRole('list', { name: 'Recibos' })
  const [first, second] = within(list).getAllByRole('listitem')
  expect(first).toHaveTextContent('Recebi de Maria Souza, CPF 111.444.777-35, a importância de R$ 50,00 (cinquenta reais), como sinal do atendimento de Sessão em 17/11/2026.')
  expect(first).toHaveTextContent('Data do pagamento: 08/11/2026')
  expect(first).toHaveTextContent('Ana Lima — CRP 06/12345')
  expect(first).toHaveTextContent('Consultório Ana · CPF 529.982.247-25')
  expect(second).toHaveTextContent('Recebi de João (CPF não informado)')
  expect(screen.getByText(/1 pagamento está sem o CPF de quem pagou e fica fora do arquivo/)).toBeInTheDocument()
  expect(screen.getByRole('heading', { name: 'Receita Saúde — novembro de 2026' })).toBeInTheDocument()
  expect(calls.every((c) => c.method === 'GET' || c.url === '/api/auth/refresh')).toBe(true)
})

it('sends the owner to the profile while the receipts are off', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/receita-saude/receipts'))
      return { status: 409, body: { error: { code: 'receipts_off', message: 'Ative "Emitir recibos do Receita Saúde" no Perfil.' } } }
    return undefined
  })
  renderRoutes([{ path: '/reports/receita-saude', Component: ReceitaSaudePage }], '/reports/receita-saude?month=2026-11')
  expect(await screen.findByRole('link', { name: 'Ir para o Perfil' })).toHaveAttribute('href', '/profile')
  fireEvent.change(screen.getByLabelText('Mês'), { target: { value: '2026-10' } })
  expect(await screen.findByRole('heading', { name: 'Receita Saúde — outubro de 2026' })).toBeInTheDocument()
})

it('prints one receipt alone: the others stay off paper while the print dialog is open', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/receita-saude/receipts'))
      return {
        status: 200,
        body: { month: '2026-11', practice: 'Consultório Ana', payee: '52998224725', missingCpf: 0, totalCents: 30000, receipts: [receipt({}), receipt({ appointmentId: 'a2' })] },
      }
    return undefined
  })
  const print = vi.fn()
  vi.stubGlobal('print', print)
  renderRoutes([{ path: '/reports/receita-saude', Component: ReceitaSaudePage }], '/reports/receita-saude?month=2026-11')
  const [first, second] = within(await screen.findByRole('list', { name: 'Recibos' })).getAllByRole('listitem')
  fireEvent.click(within(second).getByRole('button', { name: 'Imprimir este recibo' }))
  expect(print).toHaveBeenCalledTimes(1)
  expect(first).toHaveClass('print:hidden')
  expect(second).not.toHaveClass('print:hidden')
  fireEvent(window, new Event('afterprint'))
  expect(first).not.toHaveClass('print:hidden')
})
