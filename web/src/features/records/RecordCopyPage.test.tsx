import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

const professional = { ...session, user: { ...session.user, role: 'professional' } }
const ref = '6f1c2a3b-0000-4000-8000-000000000001'

const version = (over: Record<string, unknown>) => ({
  id: 'v1',
  entryId: 'e1',
  version: 1,
  kind: 'prontuario',
  template: 'evolucao',
  sessionDate: '2026-11-10',
  body: 'Primeira versão',
  authorName: 'Paula Lima',
  authorCouncil: 'CRP 06/12345',
  createdAt: '2026-11-10T13:02:00Z',
  signature: 'assinado por Paula Lima, CRP 06/12345, em 10/11/2026 10:02',
  ...over,
})

const copy = {
  practice: 'Clínica Rita',
  professional: 'Paula Lima',
  council: 'CRP 06/12345',
  client: 'Carla Souza',
  entries: [
    [
      version({
        id: 'v2',
        version: 2,
        body: 'Segunda versão\ncom duas linhas',
        reason: 'Faltou a técnica',
        signature: 'assinado por Paula Lima, CRP 06/12345, em 12/11/2026 14:02',
        cosign: { supervisorId: 'p2', signed: true, signature: 'coassinado por Rita Alves, CRP 06/2, em 13/11/2026 09:00' },
      }),
      version({}),
    ],
    [version({ id: 'v3', entryId: 'e3', template: 'anamnese', sessionDate: '2026-11-03', body: 'Demanda inicial', signature: 'assinado por Paula Lima, CRP 06/12345, em 03/11/2026 10:00' })],
  ],
}

it("reads the client's copy once and shows the practice, the professional with council, the client and every version signed, with 'Imprimir'", async () => {
  const print = vi.fn()
  vi.stubGlobal('print', print)
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: professional }
    if (c.url === '/api/records/r1/copy') return { status: 200, body: copy }
    return undefined
  })
  renderRoutes(routes, `/clients/${ref}/prontuario/copia?record=r1`)
  expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' }, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.getByText('Clínica Rita').closest('div')).toHaveTextContent('Consultório: Clínica Rita')
  expect(screen.getByText('Paula Lima — CRP 06/12345').closest('div')).toHaveTextContent('Profissional: Paula Lima — CRP 06/12345')
  expect(screen.getByText('Carla Souza', { selector: 'dd' }).closest('div')).toHaveTextContent('Cliente: Carla Souza')
  const entries = within(screen.getByRole('list', { name: 'Anotações do prontuário' })).getAllByRole('listitem')
  expect(entries).toHaveLength(2)
  const first = within(entries[0])
  expect(first.getByText('Evolução')).toBeInTheDocument()
  expect(first.getByText('Atendimento em 10/11/2026')).toBeInTheDocument()
  expect(first.getByText(/Segunda versão/).textContent).toBe('Segunda versão\ncom duas linhas')
  expect(first.getByText('assinado por Paula Lima, CRP 06/12345, em 12/11/2026 14:02')).toBeInTheDocument()
  expect(first.getByText('coassinado por Rita Alves, CRP 06/2, em 13/11/2026 09:00')).toBeInTheDocument()
  expect(first.getByText('Motivo: Faltou a técnica')).toBeInTheDocument()
  // The earlier version is on the page (and on paper), not folded away.
  expect(first.getByText('Primeira versão')).toBeVisible()
  expect(first.getByText('assinado por Paula Lima, CRP 06/12345, em 10/11/2026 10:02')).toBeInTheDocument()
  expect(within(entries[1]).getByText('Anamnese')).toBeInTheDocument()
  expect(within(entries[1]).getByText('Demanda inicial')).toBeInTheDocument()

  const back = screen.getByRole('link', { name: /Voltar para o prontuário/ })
  expect(back).toHaveAttribute('href', `/clients/${ref}/prontuario`)
  expect(back.closest('.print\\:hidden')).not.toBeNull()
  const button = screen.getByRole('button', { name: 'Imprimir' })
  expect(button.closest('.print\\:hidden')).not.toBeNull()
  await userEvent.click(button)
  expect(print).toHaveBeenCalledOnce()
  // The server logs each read as a print: one read per visit.
  expect(calls.filter((c) => c.url === '/api/records/r1/copy')).toHaveLength(1)
})

it("shows the server's refusal, and a copy without a record asks nothing", async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: professional }
    if (c.url === '/api/records/r9/copy') return { status: 404, body: { error: { code: 'not_found', message: 'Prontuário não encontrado.' } } }
    return undefined
  })
  const router = renderRoutes(routes, `/clients/${ref}/prontuario/copia?record=r9`)
  expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Prontuário não encontrado.')
  await router.navigate(`/clients/${ref}/prontuario/copia`)
  expect(await screen.findByText('Não foi possível abrir a cópia do prontuário.')).toBeInTheDocument()
  expect(calls.filter((c) => c.url.endsWith('/copy'))).toHaveLength(1)
})
